/**
 * The format an error answers in, read from the raw query before any validation: an error
 * found before the route's own parameters are read (a missing key, an oversized URL) still
 * answers as the client asked (docs/decisions.md, "Errors").
 */
import type { MiddlewareHandler } from 'hono';
import { FORMATS, type Format } from '../params/fields.ts';
import type { AppEnv } from './context.ts';
import { queryValue } from './query-value.ts';

/** Errors answer in the requested format when `format` parses, else in XML. */
export function detectFormat(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const requested = queryValue(c.req.url, 'format')?.trim().toLowerCase();
    c.set('format', FORMATS.includes(requested as Format) ? (requested as Format) : 'xml');
    await next();
  };
}
