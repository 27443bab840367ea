/**
 * Copies MapLibre GL JS's browser files (the library and its worker as ES modules, its
 * styles, its licence) from a version of the `maplibre-gl` package into
 * src/playground/maplibre/, which the playground serves for its panning map. They are kept
 * in the repository, as Swagger UI's are (docs/tiles.md, "The playground's map"): the page
 * works offline with no CDN, and an installation installs no package for a page few open, nor
 * the dozen packages maplibre-gl depends on to be built. Run
 * `npm run vendor-maplibre -- 6.20.0` to move to another version.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const version = process.argv[2];
if (!version || !/^\d+\.\d+\.\d+$/.test(version)) throw new Error('Name the maplibre-gl version to copy, e.g. npm run vendor-maplibre -- 6.20.0');
const target = join('src', 'playground', 'maplibre');
/**
 * The library loads its worker from the module beside it (`maplibre-gl-worker.mjs`, same
 * origin), so both are served from one folder; the other files of dist/ are source maps,
 * type declarations and development builds.
 */
const SCRIPTS = ['maplibre-gl.mjs', 'maplibre-gl-worker.mjs'];
const work = mkdtempSync(join(tmpdir(), 'maplibre-'));
try {
  // npm pack downloads the tarball only: no dependency is installed, no script runs.
  const [tarball] = execFileSync('npm', ['pack', `maplibre-gl@${version}`, '--silent', '--pack-destination', work], { encoding: 'utf8' }).trim().split('\n').slice(-1);
  execFileSync('tar', ['-xzf', join(work, tarball), '-C', work]);
  mkdirSync(target, { recursive: true });
  for (const file of [...SCRIPTS, 'maplibre-gl.css']) copyFileSync(join(work, 'package', 'dist', file), join(target, file));
  copyFileSync(join(work, 'package', 'LICENSE.txt'), join(target, 'LICENSE.txt'));
  // The source maps are not shipped: a browser's developer tools would ask the playground for them in vain.
  for (const file of SCRIPTS) {
    const path = join(target, file);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n'));
  }
  console.log(`Copied maplibre-gl ${version} into ${target}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
