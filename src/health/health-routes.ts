/**
 * The probes of load balancers and orchestrators (README.md, "Health and metrics"): liveness
 * that does no I/O, readiness from readiness.ts. Mounted before the key check and admission
 * (app.ts), so that no missing key or full queue makes a healthy instance look dead.
 */
import { Hono } from 'hono';
import { resolve } from 'node:path';
import type { AppEnv } from '../http/context.ts';
import type { Services } from '../app-services.ts';
import { checkReadiness } from './readiness.ts';

/**
 * GET /health: the process answers (no I/O). GET /ready: it can serve (readiness.ts); 503
 * naming what is not ready. Neither needs a key, and admission never refuses them.
 */
export function healthRoutes({ config, source, catalog, sourceHealth, jobs, basemaps, limits }: Services) {
  const dataDir = resolve(config.dataDir);
  const remote = source && sourceHealth && { describe: () => source.describe(), catalog, health: sourceHealth };
  return new Hono<AppEnv>()
    .get('/health', (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json({ status: 'ok' });
    })
    .get('/ready', async (c) => {
      const { ready, source: described, checks, degraded } = await checkReadiness({ dataDir, ...(remote ? { source: remote } : {}), drawing: jobs, basemaps, limitStore: limits.shared });
      c.header('Cache-Control', 'no-store');
      const status = !ready ? 'not ready' : degraded.length > 0 ? 'degraded' : 'ready';
      return c.json({ status, ...(described ? { source: described } : {}), checks, ...(degraded.length > 0 ? { degraded } : {}) }, ready ? 200 : 503);
    });
}
