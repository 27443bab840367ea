import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export const RUNTIMES = ['node', 'deno', 'bun'] as const;
export type RuntimeName = (typeof RUNTIMES)[number];

/**
 * The server process itself on each runtime, without npm, deno task or bun run in between
 * (whose CPU and memory would be measured instead): what `npm start`, `deno task start`
 * (whose permissions deno.json holds) and `bun run start` end up running.
 */
export function serverCommand(runtime: RuntimeName): string[] {
  switch (runtime) {
    case 'node':
      // start.js runs the server's bundle (src/node-bundle.js), as npm start does.
      return ['node', '--single-threaded-gc', 'src/server/start.js'];
    case 'deno':
      return (JSON.parse(readFileSync('deno.json', 'utf8')) as { tasks: { start: string } }).tasks.start.split(/\s+/);
    case 'bun':
      return ['node_modules/.bin/bun', 'src/server/bun.ts'];
  }
}

export interface ServerProcess {
  /** Where the server said it listens. */
  origin: string;
  /** Milliseconds from spawn to the first successful answer to `probePath`. */
  coldStartMs: number;
  /** CPU time (user + system, all threads) the spawned process has used so far, in ms. */
  cpuMs(): number;
  /** Peak resident set size so far, in MB. */
  peakRssMb(): number;
  /** Live processes of its group: the one spawned and any it started (npm, deno task and bun run start one). */
  processes(): number[];
  /** SIGTERM to every process of the group; resolves once all have exited. */
  stop(): Promise<void>;
}

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * Starts the server as a user would, learns its address from the line it prints, and waits
 * for its first real answer to `probePath`. It runs in a process group of its own.
 */
export async function startServerProcess(command: string[], env: Record<string, string>, probePath: string, cwd?: string): Promise<ServerProcess> {
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), {
    env: { ...process.env, ...env },
    cwd,
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const stopGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // every process of the group has exited already
    }
  };
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let origin: string;
  let coldStartMs: number;
  try {
    origin = await listeningOrigin(child);
    coldStartMs = await waitForAnswer(child, `${origin}${probePath}`, started);
  } catch (error) {
    stopGroup();
    throw error;
  }
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
    processes: () => groupMembers(pid),
    async stop() {
      stopGroup();
      await exited;
      const deadline = performance.now() + STOP_WITHIN_MS;
      while (groupMembers(pid).length > 0) {
        if (performance.now() > deadline) {
          process.kill(-pid, 'SIGKILL');
          throw new Error(`server did not stop within ${STOP_WITHIN_MS} ms of SIGTERM`);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

const STOP_WITHIN_MS = 15_000;

/** Processes of group `pgid` that have not exited (zombies are exited, just not yet reaped). */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(entry));
  }
  return members;
}

/** The origin in the server's "listening on" line; the rest of its output is dropped. */
function listeningOrigin(child: ChildProcess): Promise<string> {
  const stdout = child.stdout!;
  return new Promise((resolve, reject) => {
    let text = '';
    const fail = (message: string) => {
      done();
      reject(new Error(message));
    };
    const timer = setTimeout(() => fail('server did not say where it listens within 30 s'), 30_000);
    const onExit = () => fail(`server exited (code ${child.exitCode}) before it said where it listens`);
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const origin = /listening on (http:\/\/\S+)\s/.exec(text)?.[1];
      if (!origin) return;
      done();
      resolve(origin);
    };
    const done = () => {
      clearTimeout(timer);
      stdout.off('data', onData);
      child.off('exit', onExit);
    };
    stdout.on('data', onData);
    child.once('exit', onExit);
  });
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
