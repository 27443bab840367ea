/**
 * How the server stops on SIGTERM (systemd, a container's stop) or Ctrl-C: no new connections,
 * every request in progress answered or given its 503 within its budget, then the worker pools
 * and plugins closed, so that a restart or a deploy drops no answer.
 */
import type { Logger } from 'pino';
import type { Listener } from '../runtime/runtime.ts';

/**
 * Time, past the requests' budget, for the last answers to be written: the 503s of budgets
 * spent, and those waiting on a native render or PNG encode already running, which no
 * signal stops (the budgets keep those short).
 */
const LAST_ANSWERS_MS = 1000;

export interface StopOptions {
  listener: Listener;
  /** The worker pools and basemap plugins, closed once the answers are out. */
  services: { close(): Promise<void> };
  /** Each request's time budget (limits.requestTimeoutMs). */
  requestTimeoutMs: number;
  logger: Logger;
}

/**
 * On SIGTERM or SIGINT: no new connections, the requests in progress answered, then the
 * worker pools closed and exit 0 (1 if they fail to close). Every request in progress
 * started its budget before the signal, and its signal fires when that is spent (503, its
 * work stopped), so waiting the budget out leaves none unanswered; a client that keeps its
 * connection open after that does not hold up the exit. Further signals are ignored:
 * `npm start` forwards the SIGINT that Ctrl-C also sends the server itself.
 */
export function stopGracefullyOn(signals: readonly NodeJS.Signals[], { listener, services, requestTimeoutMs, logger }: StopOptions): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const withinMs = requestTimeoutMs + LAST_ANSWERS_MS;
    logger.info({ signal, withinMs }, 'stopping: no new connections; answering the requests in progress');
    const answered = await Promise.race([
      listener.close().then(() => true),
      new Promise<false>((resolve) => setTimeout(resolve, withinMs, false)),
    ]);
    if (!answered) logger.warn('stopping with connections still open');
    const status = await services.close().then(
      () => 0,
      (error: unknown) => {
        logger.error({ err: error }, 'the worker pools did not close cleanly');
        return 1;
      },
    );
    process.exit(status);
  };
  for (const signal of signals) process.on(signal, (received) => void stop(received));
}
