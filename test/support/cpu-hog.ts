/**
 * Busy loops, one process each, so that what a test measures of a server (its answers, its
 * event loop) is measured on a machine as loaded as a shared CI runner can be: a test that
 * holds beside them holds there. Each loop says when it spins, so a test starts its work on a
 * loaded machine, not on one about to be. Each ends on its own once the process that started
 * it is gone (it looks at its parent between rounds of about 10 ms), so a test runner that
 * dies leaves none spinning.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** Says so once it spins, then spins. */
const LOOP =
  "const parent = process.ppid; process.stdout.write('spinning\\n'); for (;;) { for (let i = 0; i < 1e7; i++); if (process.ppid !== parent) process.exit(0); }";

export interface CpuHogs {
  pids: number[];
  /** SIGKILL to each loop; resolves once all have exited. */
  stop(): Promise<void>;
}

/** `count` busy loops (default: one per core), each spinning once this resolves (it said so). */
export async function startCpuHogs(count = availableParallelism()): Promise<CpuHogs> {
  const hogs: ChildProcess[] = [];
  for (let i = 0; i < count; i++) hogs.push(spawn(process.execPath, ['-e', LOOP], { stdio: ['ignore', 'pipe', 'inherit'] }));
  await Promise.all(
    hogs.map(
      (hog) =>
        new Promise<void>((resolve, reject) => {
          hog.stdout!.once('data', () => resolve());
          hog.once('error', reject);
          hog.once('exit', (code) => reject(new Error(`a busy loop exited (${code}) before it spun`)));
        }),
    ),
  );
  return {
    pids: hogs.map((hog) => hog.pid!),
    async stop() {
      await Promise.all(
        hogs.map((hog) => {
          if (hog.exitCode !== null || hog.signalCode !== null) return undefined;
          const exited = new Promise<void>((resolve) => hog.once('exit', () => resolve()));
          hog.kill('SIGKILL');
          return exited;
        }),
      );
    },
  };
}
