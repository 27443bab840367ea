import { setMaxListeners } from 'node:events';
import type { MiddlewareHandler } from 'hono';
import { OverloadedError } from '../errors.ts';
import type { AppEnv } from './context.ts';

/** Why the work of a request whose client has gone stops; nobody reads the answer. */
export class ClientGoneError extends Error {
  constructor() {
    super('The client closed the connection before the answer was ready.');
    this.name = 'ClientGoneError';
  }
}

/** Listeners one request's signal may have before Node warns of a leak. */
const MAX_LISTENERS = 1000;

/**
 * One cancellation signal per request, fired when its client disconnects or when its time
 * budget is spent (then the answer is a 503); every stage of the work listens to it.
 */
export function requestSignal(timeoutMs: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const controller = new AbortController();
    // Every stage listens (a map waits for a dozen tiles at once): not a leak, but Node warns past ten.
    setMaxListeners(MAX_LISTENERS, controller.signal);
    const timer = setTimeout(
      () => controller.abort(new OverloadedError(`The request could not be answered within ${timeoutMs} ms; retry later.`, 2)),
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
    }
  };
}
