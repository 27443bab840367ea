/**
 * Whether a server's event loop stays free while it does big work: /health asked again and
 * again by a process of its own (health-poller.ts) during the work, each answer timed there,
 * and the server's own measure of its event loop's lag (prom-client's
 * nodejs_eventloop_lag_max_seconds on /metrics, the largest lag since the previous scrape: it
 * is scraped just before the work and read just after).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sendRaw } from './raw-request.ts';

const POLLER = fileURLToPath(new URL('./health-poller.ts', import.meta.url));

export interface HealthReport {
  /** /health answers (200) timed during the work. */
  answers: number;
  /** The slowest and the median answer, less the time the poller itself was held up and the server's event loop waited for a core meanwhile (health-poller.ts). */
  maxMs: number | null;
  medianMs: number | null;
  /** The slowest answer as timed, and the most the poller was held up during one answer. */
  rawMaxMs: number | null;
  pollerHeldMaxMs: number;
  /** The most the server's event loop waited for a core during one answer. */
  serverQueuedMaxMs: number;
  /** Answers that took the server more than 100 ms: when sent (ms since the poller started), how long they took, how much of it the poller was held up and the server waited for a core. */
  slow: { at: number; ms: number; heldMs: number; queuedMs: number; status: number | 'failed' }[];
  /** Requests that got no 200. */
  failed: string[];
  /** The server's largest event-loop lag while the work ran, from /metrics, in ms. */
  eventLoopLagMaxMs: number | undefined;
}

export interface HealthPoll {
  /** Runs `work` with /health polled all the while; the poll is running before the work starts. */
  during<T>(name: string, work: () => Promise<T>): Promise<{ result: T; health: HealthReport }>;
  stop(): void;
}

/** Starts the poller on `origin`, served by process `pid`; it polls from now until stop(). */
export async function startHealthPoll(origin: string, pid?: number): Promise<HealthPoll> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', POLLER, origin, ...(pid ? [String(pid)] : [])], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map<string, (rest: string) => void>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const [kind, name] = line.split(' ', 2);
    const key = `${kind} ${name}`;
    const waiter = waiting.get(key);
    if (!waiter) return;
    waiting.delete(key);
    waiter(line.slice(key.length + 1));
  });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the /health poller exited (${code})`))));
  exited.catch(() => {});
  const next = (kind: string, name: string) =>
    Promise.race([new Promise<string>((resolve) => waiting.set(`${kind} ${name}`, resolve)), exited]);
  let windows = 0;

  return {
    async during(name, work) {
      const window = `${name.replace(/\s+/g, '_')}#${++windows}`;
      const marked = next('marked', window);
      child.stdin!.write(`mark ${window}\n`);
      await marked;
      await eventLoopLagMaxMs(origin);
      const result = await work();
      const lag = await eventLoopLagMaxMs(origin);
      const reported = next('report', window);
      child.stdin!.write(`report ${window}\n`);
      const report = JSON.parse(await reported) as Omit<HealthReport, 'eventLoopLagMaxMs'>;
      return { result, health: { ...report, eventLoopLagMaxMs: lag } };
    },
    stop() {
      child.stdin!.end();
      child.kill('SIGKILL');
    },
  };
}

/**
 * The server's nodejs_eventloop_lag_max_seconds in ms (prom-client resets it at each scrape);
 * undefined if not reported. On a connection of its own: a kept-alive one, idle through a
 * long request, may be closed by the server just as it is reused.
 */
export async function eventLoopLagMaxMs(origin: string): Promise<number | undefined> {
  const outcome = await sendRaw(origin, { method: 'GET', target: '/metrics', headers: {} }, 30_000).outcome;
  if (outcome.kind === 'failed') throw new Error(`/metrics: ${outcome.reason}`);
  const text = outcome.body.toString();
  const match = /^nodejs_eventloop_lag_max_seconds(?:\{[^}]*\})? (\S+)$/m.exec(text);
  const seconds = match ? Number(match[1]) : NaN;
  return Number.isFinite(seconds) ? seconds * 1000 : undefined;
}

/** One line for an assertion's message. */
export function describeHealth(health: HealthReport): string {
  const slow = health.slow.length ? `; past 100 ms: ${health.slow.map((answer) => `${answer.ms - answer.heldMs - answer.queuedMs} ms`).join(', ')}` : '';
  const lag = health.eventLoopLagMaxMs === undefined ? 'not reported' : `${health.eventLoopLagMaxMs.toFixed(0)} ms`;
  return (
    `/health answered ${health.answers} times, slowest ${health.maxMs?.toFixed(0) ?? '-'} ms, median ${health.medianMs?.toFixed(1) ?? '-'} ms${slow}` +
    `${health.failed.length ? `; not answered 200: ${health.failed.join(', ')}` : ''} (as timed, slowest ${health.rawMaxMs?.toFixed(0) ?? '-'} ms; ` +
    `the poller itself held up at most ${health.pollerHeldMaxMs.toFixed(0)} ms, the server's event loop waiting for a core at most ${health.serverQueuedMaxMs.toFixed(0)} ms, during one); the server's event-loop lag max (/metrics): ${lag}`
  );
}
