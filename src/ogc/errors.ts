/**
 * Errors under /ogc come as OGC API's JSON exception, `{ "code", "description" }`, with the
 * HTTP status, instead of our other routes' envelope: that is what OGC API clients read.
 * They are told apart by path, since the key is checked (401) before any route is chosen.
 * A browser asking for a page without a valid key gets a page that says how to give one.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { MISSING_KEY } from '../auth/key-messages.ts';
import { reasonPhrase } from '../envelope/model.ts';
import type { AppEnv } from '../http/context.ts';
import type { SendFailure } from '../http/errors.ts';
import { queryValue } from '../http/query-value.ts';
import { PAGE_HEADERS, wantsHtml } from './html/answer.ts';
import { keyNeededHtml } from './html/key-page.ts';
import { MEDIA_TYPES } from './links.ts';

/** Whether a (lower-cased) request path lies under /ogc. */
export function isOgcPath(path: string): boolean {
  return path === '/ogc' || path.startsWith('/ogc/');
}

/**
 * The exception document: `code` is the status's reason phrase as one word ('NotFound').
 * Never kept by a cache: it describes this moment (overload, a file being replaced), not the resource.
 */
export function sendException(c: Context<AppEnv>, status: number, description: string): Response {
  c.header('Cache-Control', 'no-store');
  const code = reasonPhrase(status).replace(/ /g, '');
  return c.body(JSON.stringify({ code, description }), status as 400, { 'Content-Type': MEDIA_TYPES.json });
}

/** The exception document with a Retry-After where one is due: /ogc's way of failing (http/errors.ts decides what failed). */
export const ogcFailure: SendFailure = (c, status, message, retryAfterSeconds) => {
  if (retryAfterSeconds !== undefined) c.header('Retry-After', String(retryAfterSeconds));
  if (status === 401 && wantsHtml(c, queryValue(c.req.url, 'f'))) return sendKeyPage(c, message !== MISSING_KEY);
  return sendException(c, status, message);
};

/**
 * The 401 as a page, for a browser (docs/ogc.md, "In a browser"): GDAL and QGIS, which ask for
 * JSON, keep the exception. Never cached, as the exception; it varies with Accept.
 */
function sendKeyPage(c: Context<AppEnv>, keyCame: boolean): Response {
  for (const [name, value] of Object.entries(PAGE_HEADERS)) c.header(name, value);
  c.header('Cache-Control', 'no-store');
  c.header('Vary', 'Accept', { append: true });
  return c.body(keyNeededHtml(new URL(c.req.url).pathname, keyCame), 401, { 'Content-Type': `${MEDIA_TYPES.html}; charset=utf-8` });
}

/** OGC API – Features is read-only: other methods answer 405 here, before the envelope's check sees them. */
export function onlyGetOrHead(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    c.header('Allow', 'GET, HEAD');
    return sendException(c, 405, `Method ${c.req.method} is not allowed; use GET.`);
  };
}
