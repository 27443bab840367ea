import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Test files run in parallel, and packing shapeshot rebuilds the checkout's one dist/ (its
 * prepack): packs take turns under flock(1), whose lock the kernel drops if its holder dies.
 */
const PACK_LOCK = join(tmpdir(), 'shapeshot-npm-pack.lock');

/**
 * shapeshot installed into `project`, a new npm project, the way a user installs it: packed
 * with `npm pack` (which builds its JavaScript), installed from the tarball by npm without
 * devDependencies, together with the packages in the folders `others` (packed too).
 */
export function installPacked(project: string, others: readonly string[] = []): void {
  const run = (command: string[], cwd: string) => execFileSync(command[0], command.slice(1), { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  for (const folder of [REPO, ...others]) run(['flock', PACK_LOCK, 'npm', 'pack', '--silent', '--pack-destination', project], folder);
  const tarballs = readdirSync(project).filter((name) => name.endsWith('.tgz'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'a-users-project', private: true, type: 'module' }));
  run(['npm', 'install', '--prefer-offline', '--no-audit', '--no-fund', '--omit=dev', ...tarballs.map((name) => `./${name}`)], project);
}
