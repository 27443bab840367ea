/**
 * npm run build (and npm pack's prepack): what the published package ships, in dist/. The
 * compiler writes JavaScript and .d.ts laid out as the sources are (dist/src, dist/plugins);
 * the folders the server reads beside its modules (themes, the sample data) are copied
 * where the built modules look for them (src/config/package-folders.ts). Files a browser
 * loads (pages, styles, scripts) ship exactly as they are in src/.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

rmSync('dist', { recursive: true, force: true });
const compiler = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [compiler, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
for (const folder of ['themes', 'data']) cpSync(folder, `dist/${folder}`, { recursive: true });
// What modules read beside themselves (pages, styles, and the browser's scripts, which
// tsconfig.build.json leaves out so that they reach the browser as written) goes where the
// built modules look: every file the compiler did not emit, TypeScript sources aside.
for (const folder of ['src', 'plugins']) {
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    const target = join('dist', entry.parentPath, entry.name);
    if (entry.isFile() && !entry.name.endsWith('.ts') && !existsSync(target)) cpSync(join(entry.parentPath, entry.name), target);
  }
}

// tsc rewrites relative `.ts` imports to `.js` in JavaScript but not in declarations
// (TypeScript #61037), and a plugin's compiler cannot follow `./x.ts` to `./x.d.ts`.
const RELATIVE_TS_SPECIFIER = /((?:from|import)\s*\(?\s*['"]\.{1,2}\/[^'"]*)\.ts(['"])/g;
for (const entry of readdirSync('dist', { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
  const path = join(entry.parentPath, entry.name);
  writeFileSync(path, readFileSync(path, 'utf8').replace(RELATIVE_TS_SPECIFIER, '$1.js$2'));
}
