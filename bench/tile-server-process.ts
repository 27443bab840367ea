/**
 * bench/tile-server.ts in a process of its own: the load generator may block the bench's
 * process (wrk runs synchronously), and a tile server in it would then stop answering.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The tile server's URL template, and how to stop it. */
export async function startTileServer(): Promise<{ template: string; close(): Promise<void> }> {
  const script = fileURLToPath(new URL('./tile-server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const template = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  return {
    template: template.trim(),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
