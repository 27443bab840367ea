import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface ServerProcess {
  origin: string;
  /** Milliseconds from spawn to the first successful answer to `probePath`. */
  coldStartMs: number;
  /** CPU time (user + system, all threads) the process has used so far, in ms. */
  cpuMs(): number;
  /** Peak resident set size so far, in MB. */
  peakRssMb(): number;
  stop(): Promise<void>;
}

const CLOCK_TICKS_PER_SECOND = 100;

/** Starts the server as a user would, and waits for its first real answer. */
export async function startServerProcess(
  command: string[],
  env: Record<string, string>,
  port: number,
  probePath: string,
): Promise<ServerProcess> {
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  const origin = `http://127.0.0.1:${port}`;
  const coldStartMs = await waitForAnswer(child, `${origin}${probePath}`, started);
  const pid = child.pid!;
  return {
    origin,
    coldStartMs,
    cpuMs() {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
    },
    peakRssMb() {
      const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'))!;
      return Number(line.replace(/\D+/g, '')) / 1024;
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function waitForAnswer(child: ChildProcess, url: string, started: number): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 30_000) throw new Error('server did not answer within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
