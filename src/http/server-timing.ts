/**
 * Server-Timing on the operations' answers (docs/configuration.md, "HTTP, logs and metrics"):
 * where a request's time went, stage by stage, the workers' stages included, for browsers'
 * developer tools and `npm run bench`. Off by default: it tells anyone how long each step takes.
 */
import type { MiddlewareHandler } from 'hono';
import { addStages, startStopwatch, type RequestTiming, type Stopwatch } from '../stages.ts';
import type { AppEnv } from './context.ts';

/**
 * With `enabled`, every operation's answer carries a Server-Timing header: milliseconds per
 * stage, the way browsers' developer tools and `npm run bench` read it. Off by default: it
 * tells the world how long each step takes.
 */
export function serverTiming(enabled: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!enabled) return next();
    const watch = startStopwatch();
    c.set('timing', requestTiming(watch));
    await next();
    watch.lap('envelope');
    c.res.headers.set(
      'Server-Timing',
      Object.entries(watch.stages)
        .map(([stage, ms]) => `${stage};dur=${ms.toFixed(3)}`)
        .join(', '),
    );
  };
}

function requestTiming(watch: Stopwatch): RequestTiming {
  return {
    lap: watch.lap,
    job(stages) {
      const queued = watch.stages.queue ?? 0;
      watch.lap('queue');
      const spent = Object.values(stages).reduce((sum, ms) => sum + ms, 0);
      watch.stages.queue = queued + Math.max(0, watch.stages.queue - queued - spent);
      addStages(watch.stages, stages);
    },
  };
}
