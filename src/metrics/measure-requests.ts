/**
 * The counting step of /metrics (README.md, "Health and metrics"): every answer by route
 * pattern, status and key name, refusals and cancellations by reason, never a key or anything
 * else a client sent as a label. Outermost, so that the 401s and 503s of the steps within count.
 */
import type { MiddlewareHandler } from 'hono';
import { RefusedError } from '../http/admission.ts';
import type { AppEnv } from '../http/context.ts';
import { cancellationCause } from '../http/request-signal.ts';
import { routePattern } from '../http/route-pattern.ts';
import type { ServiceMetrics } from './service-metrics.ts';

/**
 * Counts every answer by route pattern and status, with its latency; by key (its label) when
 * the key was accepted, with its pictures; and, from how it ended, a refusal by its reason
 * and a cancellation by its cause. Outermost, so that it sees the answers of every other
 * middleware (a 401, a refusal) too.
 */
export function measureRequests(metrics: ServiceMetrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    metrics.answered(routePattern(c), c.res.status, (performance.now() - started) / 1000);
    if (c.error instanceof RefusedError) metrics.refused(c.error.reason);
    const grant = c.get('grant');
    if (grant) metrics.keyAnswered(grant.label, c.get('pictures') ?? 0);
    const cause = cancellationCause(c.get('signal'));
    if (cause) metrics.cancelled(cause);
  };
}
