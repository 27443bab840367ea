/**
 * The TraceId of a request, made before any other step so that every answer, error or not,
 * and the log line carry the same one (docs/decisions.md, "Envelope").
 */
import type { MiddlewareHandler } from 'hono';
import { createTraceId } from '../envelope/trace-id.ts';
import type { AppEnv } from './context.ts';

/** Gives every request a TraceId and returns it as X-Trace-Id on every answer. */
export function traceId(instance: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const id = createTraceId(instance);
    c.set('traceId', id);
    await next();
    c.res.headers.set('X-Trace-Id', id);
  };
}
