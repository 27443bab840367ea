import { spawn, type ChildProcess } from 'node:child_process';

/** A server started as its own process, for tests of what a process does: signals, exit status, what it prints. */
export interface SpawnedServer {
  /** Where it said it listens. */
  origin: string;
  process: ChildProcess;
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
  /** The first line it printed or prints that matches `pattern`. */
  line(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** The first line it prints from now on that matches `pattern`. */
  nextLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Its exit status (null if a signal ended it). */
  exited: Promise<number | null>;
  /** SIGKILL to it and whatever it started (npx starts the server), if still running. */
  kill(): void;
}

const START_WITHIN_MS = 30_000;

/** Starts `command` in a process group of its own and waits for its "listening on" line. */
export async function spawnServer(command: readonly string[], cwd: string): Promise<SpawnedServer> {
  const child = spawn(command[0], command.slice(1), {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let printed = '';
  const watchers = new Set<() => void>();
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      for (const watcher of watchers) watcher();
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const lineAfter = (start: number, pattern: RegExp, timeoutMs: number) =>
    new Promise<string>((resolve, reject) => {
      const look = () => {
        const completeLines = printed.slice(start, printed.lastIndexOf('\n') + 1).split('\n');
        const line = completeLines.find((candidate) => pattern.test(candidate));
        if (line === undefined) return;
        finish();
        resolve(line);
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; it printed:\n${printed}`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        watchers.delete(look);
      };
      watchers.add(look);
      look();
    });

  const server: SpawnedServer = {
    origin: '',
    process: child,
    output: () => printed,
    line: (pattern, timeoutMs = 10_000) => lineAfter(0, pattern, timeoutMs),
    nextLine: (pattern, timeoutMs = 10_000) => lineAfter(printed.length, pattern, timeoutMs),
    exited,
    kill() {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the whole group has exited already
      }
    },
  };
  const listening = await Promise.race([
    server.line(/listening on http:\/\/\S+/, START_WITHIN_MS),
    exited.then((code) => Promise.reject(new Error(`server exited (${code}) before it listened; it printed:\n${printed}`))),
  ]).catch((error: unknown) => {
    server.kill();
    throw error;
  });
  server.origin = /listening on (http:\/\/\S+)/.exec(listening)![1];
  return server;
}
