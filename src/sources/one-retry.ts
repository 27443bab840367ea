/**
 * One request to a remote source, bounded in time and tried at most twice: a timeout, a 5xx
 * or a network error is worth one more try (a dropped connection, a busy node behind a load
 * balancer), a second failure is the source's (DataSourceUnavailableError, a 503 naming it).
 * The caller's signal stops everything at once, with no retry: a request whose client has
 * gone reads nothing more.
 *
 * The timeout covers the whole attempt, body included, from its start: a server that sends
 * headers and then stalls, or trickles a byte a second, holds a read as surely as one that
 * never answers, and no byte it sends puts the deadline off. When it passes, the attempt's
 * signal fires (the client destroys its socket: source-request.ts) and the attempt is given
 * up at once, whether or not the client has let go yet (docs/configuration.md, "Data
 * sources": nothing waits on a source without a deadline).
 */
import { abortable } from '../cancellation/abortable.ts';
import { deadlineSignal } from '../cancellation/deadline-signal.ts';
import { DataSourceUnavailableError } from '../plugin-contract/data-source-errors.ts';

/** A failure worth one more try (a 5xx answer), said as the end of a sentence about the source. */
export class TransientFailure extends Error {}

export interface AttemptSettings {
  /** The source's describe(), for the error. */
  source: string;
  /** Each attempt's time limit. */
  timeoutMs: number;
  /** The caller's signal: when it fires, the attempt stops and nothing is retried. */
  signal: AbortSignal;
}

const ATTEMPTS = 2;

/**
 * `attempt` run with a signal that fires on the caller's signal or the timeout, once more
 * after a transient failure. Errors that are not transient (a refusal, a changed file) pass
 * through at once.
 */
export async function withOneRetry<T>(attempt: (signal: AbortSignal) => Promise<T>, { source, timeoutMs, signal }: AttemptSettings): Promise<T> {
  for (let tried = 1; ; tried++) {
    signal.throwIfAborted();
    const deadline = deadlineSignal(timeoutMs, signal);
    try {
      return await abortable(attempt(deadline.signal), deadline.signal);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const reason = deadline.timedOut() ? `no answer within ${timeoutMs} ms` : transientReason(error);
      if (reason === undefined) throw error;
      if (tried === ATTEMPTS) throw new DataSourceUnavailableError(source, `${reason} (tried ${ATTEMPTS} times).`);
    } finally {
      deadline.clear();
    }
  }
}

/**
 * Why an attempt failed, when the failure is worth another try; undefined otherwise. A
 * network error is a TypeError (fetch, and a body stream cut off, reject with one on every
 * runtime), told by its code alone: fetch's messages may quote the URL, which for a
 * signed request holds the signature.
 */
function transientReason(error: unknown): string | undefined {
  if (error instanceof TransientFailure) return error.message;
  if (error instanceof TypeError) {
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    return `it could not be reached${typeof code === 'string' ? ` (${code})` : ''}`;
  }
  return undefined;
}
