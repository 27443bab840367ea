/**
 * The methods the interface's routes take: it has only GET, so any other method is answered
 * 405 with `Allow`, in the envelope's format (/ogc refuses them itself, in its own).
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.ts';
import { sendError, type ErrorSettings } from './errors.ts';

/** The interface has only GET; HEAD comes free with it. */
export function onlyGet(settings: ErrorSettings): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    c.header('Allow', 'GET, HEAD');
    return sendError(c, 405, `Method ${c.req.method} is not allowed; use GET.`, settings);
  };
}
