/**
 * The one cancellation signal of each request (docs/decisions.md, "Cost, load and cancellation"):
 * it fires when the client leaves or the time budget is spent, every stage of the work stops on
 * it (ARCHITECTURE.md, "Cross-cutting concerns"), and it tells /metrics which of the two it was.
 */
import { setMaxListeners } from 'node:events';
import type { MiddlewareHandler } from 'hono';
import { OverloadedError, withoutStack } from '../errors.ts';
import type { AppEnv } from './context.ts';

/** Why the work of a request whose client has gone stops; nobody reads the answer. */
export class ClientGoneError extends Error {
  constructor() {
    super('The client closed the connection before the answer was ready.');
    this.name = 'ClientGoneError';
  }
}

/**
 * Why work still running for a request that has been answered stops: a map whose basemap
 * failed on one tile answers at once, while the fetches of its other tiles would run on to
 * their own timeouts. No one waits for that work; it is not a cancellation of the request.
 */
export class RequestEndedError extends Error {
  constructor() {
    super('The request has ended; work still running for it is no longer needed.');
    this.name = 'RequestEndedError';
  }
}

/** How a request's work was cancelled before its answer: its client left, or its time budget ran out; undefined when it was not. */
export function cancellationCause(signal: AbortSignal | undefined): 'client_gone' | 'time_budget' | undefined {
  if (!signal?.aborted || signal.reason instanceof RequestEndedError) return undefined;
  return signal.reason instanceof ClientGoneError ? 'client_gone' : 'time_budget';
}

/**
 * The one reason every ended request's signal fires with: made per request, its stack was
 * captured on every answer (a few µs each) for an error nobody reports.
 */
const REQUEST_ENDED: RequestEndedError = Object.freeze(withoutStack(() => new RequestEndedError()));

/** Listeners one request's signal may have before Node warns of a leak. */
const MAX_LISTENERS = 1000;

/**
 * One cancellation signal per request, fired when its client disconnects or when its time
 * budget is spent (then the answer is a 503); every stage of the work listens to it. Once
 * the handler is done it fires in any case (RequestEndedError), so that work the answer no
 * longer waits for (the other tiles of a failed Promise.all) stops too.
 */
export function requestSignal(timeoutMs: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const controller = new AbortController();
    // Every stage listens (a map waits for a dozen tiles at once): not a leak, but Node warns past ten.
    setMaxListeners(MAX_LISTENERS, controller.signal);
    const timer = setTimeout(
      () => controller.abort(new OverloadedError(`The request could not be answered within ${timeoutMs} ms (limits.requestTimeoutMs); retry later.`, 2)),
      timeoutMs,
    );
    const client = c.req.raw.signal;
    const onClientGone = () => controller.abort(new ClientGoneError());
    if (client.aborted) onClientGone();
    else client.addEventListener('abort', onClientGone, { once: true });
    c.set('signal', controller.signal);
    try {
      await next();
    } finally {
      clearTimeout(timer);
      client.removeEventListener('abort', onClientGone);
      controller.abort(REQUEST_ENDED);
    }
  };
}
