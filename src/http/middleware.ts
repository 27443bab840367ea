/**
 * The steps every request passes before a route sees it (trace id, log line, format of the
 * errors, size of the head, the key), kept apart from the routes so that each route is only
 * its own work and the order of these steps is read in one place (app.ts).
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { KeyRing } from '../auth/keys.ts';
import { MISSING_KEY, UNKNOWN_KEY } from '../auth/key-messages.ts';
import { demoKeyRefusal } from '../auth/local-requests.ts';
import { createTraceId } from '../envelope/trace-id.ts';
import { ServiceError, UnauthorizedError } from '../errors.ts';
import { FORMATS, type Format } from '../params/fields.ts';
import { refusal } from './admission.ts';
import type { AppEnv } from './context.ts';
import { sendError, type ErrorSettings } from './errors.ts';
import { routePattern } from './route-pattern.ts';

/** Gives every request a TraceId and returns it as X-Trace-Id on every answer. */
export function traceId(instance: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const id = createTraceId(instance);
    c.set('traceId', id);
    await next();
    c.res.headers.set('X-Trace-Id', id);
  };
}

/**
 * One log line per request. The route is logged by its pattern, not the path that came: a
 * key pasted into a path by mistake would be kept in the log; and the query holds the key.
 */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    logger.info(
      {
        traceId: c.get('traceId'),
        method: c.req.method,
        route: routePattern(c),
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        key: c.get('grant')?.label,
      },
      'request',
    );
  };
}

/** Reads a query parameter whatever the case of its name (first value). */
export function queryValue(url: string, name: string): string | undefined {
  const query = url.indexOf('?');
  if (query < 0) return undefined;
  for (const [key, value] of new URLSearchParams(url.slice(query + 1))) {
    if (key.toLowerCase() === name) return value;
  }
  return undefined;
}

/** Errors answer in the requested format when `format` parses, else in XML. */
export function detectFormat(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const requested = queryValue(c.req.url, 'format')?.trim().toLowerCase();
    c.set('format', FORMATS.includes(requested as Format) ? (requested as Format) : 'xml');
    await next();
  };
}

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

/**
 * The key, from the `key` parameter or the X-API-Key header, is checked before anything
 * else: a missing or unknown key is 401. The demo key serves only requests on this machine
 * to this machine (local-requests.ts), and its answers only pages of this machine.
 */
export function requireKey(keys: KeyRing): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = queryValue(c.req.url, 'key') ?? c.req.header('x-api-key');
    const grant = keys.authenticate(key);
    if (!grant) {
      throw new UnauthorizedError(key === undefined || key === '' ? MISSING_KEY : UNKNOWN_KEY);
    }
    if (grant.demo) {
      const refusal = demoKeyRefusal(c.req.url, c.req.raw.headers);
      if (refusal !== undefined) {
        // cors() has already allowed `*`: the page the key was refused to must not read even why.
        c.res.headers.delete('Access-Control-Allow-Origin');
        throw new UnauthorizedError(refusal);
      }
      readableOnlyByLocalPages(c);
    }
    const limit = grant.rateLimiter?.take();
    if (limit && !limit.allowed) {
      throw refusal('The rate limit of this access key was reached; retry later.', 'rate_limit', limit.retryAfterSeconds);
    }
    c.set('grant', grant);
    await next();
  };
}

/**
 * CORS for an answer to the demo key: the page's own origin (a loopback one, or the key was
 * refused), never `*`. Without an Origin there is none to allow: same-origin reads and
 * `<img>` need no header, and a `*` kept in the browser's cache would let a page of another
 * site read the same URL later without asking us. `Vary: Origin` keeps caches from handing
 * one page's answer to another.
 */
function readableOnlyByLocalPages(c: Context<AppEnv>): void {
  const origin = c.req.header('origin');
  c.header('Access-Control-Allow-Origin', origin);
  c.header('Vary', 'Origin', { append: true });
}

/** The interface has only GET; HEAD comes free with it. */
export function onlyGet(settings: ErrorSettings): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    c.header('Allow', 'GET, HEAD');
    return sendError(c, 405, `Method ${c.req.method} is not allowed; use GET.`, settings);
  };
}
