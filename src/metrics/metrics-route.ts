/**
 * GET /metrics for Prometheus (README.md, "Health and metrics"): without a key, as the probes,
 * and not mounted at all with `"metrics": false`, for a server whose /metrics should not face
 * the world.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import type { ServiceMetrics } from './service-metrics.ts';

/** GET /metrics: everything counted, in the Prometheus text format. */
export function metricsRoute(metrics: ServiceMetrics) {
  return new Hono<AppEnv>().get('/metrics', async (c) => {
    c.header('Content-Type', metrics.contentType);
    c.header('Cache-Control', 'no-store');
    return c.body(await metrics.exposition());
  });
}
