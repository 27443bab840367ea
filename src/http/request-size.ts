/**
 * The bound on a request's head, the same on every runtime: a URL or header block larger than
 * any request needs is refused with an envelope, not read (docs/decisions.md, "Cost, load and
 * cancellation").
 */
import type { MiddlewareHandler } from 'hono';
import { ServiceError } from '../errors.ts';
import type { AppEnv } from './context.ts';

/**
 * Longer URLs answer 414, and larger header blocks 431: Node's own limit on a request's
 * head, so that every runtime answers alike (Deno lets far larger heads through).
 */
export const MAX_HEAD_BYTES = 16 * 1024;

/** A URL or a header block larger than any request needs is refused before either is read. */
export function limitRequestSize(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.url.length > MAX_HEAD_BYTES) {
      throw new ServiceError(414, `The request URL is ${c.req.url.length} characters long; at most ${MAX_HEAD_BYTES} are accepted.`);
    }
    let headerBytes = 0;
    c.req.raw.headers.forEach((value, name) => (headerBytes += name.length + value.length + 4));
    if (headerBytes > MAX_HEAD_BYTES) {
      throw new ServiceError(431, `The request headers take ${headerBytes} bytes; at most ${MAX_HEAD_BYTES} are accepted.`);
    }
    await next();
  };
}
