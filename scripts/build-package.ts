/**
 * npm run build (and npm pack's prepack): what the published package ships, in dist/. The
 * compiler writes JavaScript and .d.ts laid out as the sources are (dist/src, dist/plugins);
 * the folders the server reads beside its modules (themes, the sample data) are copied
 * where the built modules look for them (src/config/package-folders.ts).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

rmSync('dist', { recursive: true, force: true });
const compiler = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [compiler, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
for (const folder of ['themes', 'data']) cpSync(folder, `dist/${folder}`, { recursive: true });
