/**
 * Errors under /ogc come as OGC API's JSON exception, `{ "code", "description" }`, with the
 * HTTP status, instead of our other routes' envelope: that is what OGC API clients read.
 * They are told apart by path, since the key is checked (401) before any route is chosen.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import { reasonPhrase } from '../envelope/model.ts';
import { ServiceError } from '../errors.ts';
import type { AppEnv } from '../http/context.ts';
import { ClientGoneError } from '../http/request-signal.ts';
import { MEDIA_TYPES } from './links.ts';

/** Whether a (lower-cased) request path lies under /ogc. */
export function isOgcPath(path: string): boolean {
  return path === '/ogc' || path.startsWith('/ogc/');
}

/** The exception document: `code` is the status's reason phrase as one word ('NotFound'). */
export function sendException(c: Context<AppEnv>, status: number, description: string): Response {
  const code = reasonPhrase(status).replace(/ /g, '');
  return c.body(JSON.stringify({ code, description }), status as 400, { 'Content-Type': MEDIA_TYPES.json });
}

/** Hono's onError for /ogc: as the envelope's handler (src/http/errors.ts) decides, in OGC's format. */
export function ogcErrorHandler(logger: Logger) {
  return (error: Error, c: Context<AppEnv>): Response => {
    if (error instanceof ServiceError) {
      if (error.status === 500) logger.error({ traceId: c.get('traceId'), err: error.message }, 'damaged shapefile');
      if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.retryAfterSeconds));
      return sendException(c, error.status, error.message);
    }
    // Nobody reads this answer; the work stopped when the client left.
    if (error instanceof ClientGoneError) return c.body(null, 499 as 400);
    if (error instanceof URIError) return sendException(c, 400, 'The request is not validly percent-encoded.');
    logger.error({ traceId: c.get('traceId'), err: error }, 'unexpected fault');
    return sendException(
      c,
      500,
      `An unexpected error occurred while answering this request; quote the X-Trace-Id header ('${c.get('traceId')}') when reporting it.`,
    );
  };
}

/** OGC API – Features is read-only: other methods answer 405 here, before the envelope's check sees them. */
export function onlyGetOrHead(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    c.header('Allow', 'GET, HEAD');
    return sendException(c, 405, `Method ${c.req.method} is not allowed; use GET.`);
  };
}
