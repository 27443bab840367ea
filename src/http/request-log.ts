/**
 * The log line of every request, written when its answer is known: what an operator reads,
 * and what must never hold a key (docs/decisions.md, "Shapefiles and keys").
 */
import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { AppEnv } from './context.ts';
import { routePattern } from './route-pattern.ts';

/**
 * One log line per request. The route is logged by its pattern, not the path that came: a
 * key pasted into a path by mistake would be kept in the log; and of the query, which holds
 * the key, only the names of the parameters the route took (so that an operator sees that
 * GDAL sent `filter`, say), never a value.
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
        parameters: c.get('queryNames'),
        ms: Math.round((performance.now() - started) * 10) / 10,
        key: c.get('grant')?.label,
      },
      'request',
    );
  };
}
