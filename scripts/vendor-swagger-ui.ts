/**
 * Copies Swagger UI's browser files (the bundle, its styles, licence and notice) from a
 * version of the `swagger-ui-dist` package into src/openapi/swagger-ui/, which /docs serves.
 * They are kept in the repository instead of installed: since 5.18 the package depends on
 * @scarf/scarf, whose install script reports each installation to a third party, and a
 * self-hosted server installs nothing that phones home (README.md, "What an
 * installation contains"). Run `npm run vendor-swagger-ui -- 5.36.0` to move to another version.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const version = process.argv[2];
if (!version || !/^\d+\.\d+\.\d+$/.test(version)) throw new Error('Name the swagger-ui-dist version to copy, e.g. npm run vendor-swagger-ui -- 5.35.0');
const target = join('src', 'openapi', 'swagger-ui');
const work = mkdtempSync(join(tmpdir(), 'swagger-ui-'));
try {
  // npm pack downloads the tarball only: no dependency is installed, no script runs.
  const [tarball] = execFileSync('npm', ['pack', `swagger-ui-dist@${version}`, '--silent', '--pack-destination', work], { encoding: 'utf8' }).trim().split('\n').slice(-1);
  execFileSync('tar', ['-xzf', join(work, tarball), '-C', work]);
  for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css', 'LICENSE', 'NOTICE']) copyFileSync(join(work, 'package', file), join(target, file));
  // The source maps are not shipped: a browser's developer tools would ask /docs for them in vain.
  for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
    const path = join(target, file);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/\n?\/[/*]# sourceMappingURL=\S+?(\*\/)?\s*$/, '\n'));
  }
  console.log(`Copied swagger-ui-dist ${version} into ${target}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
