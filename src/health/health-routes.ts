import { Hono } from 'hono';
import { resolve } from 'node:path';
import type { AppEnv } from '../http/context.ts';
import type { Services } from '../app-services.ts';
import { checkReadiness } from './readiness.ts';

/**
 * GET /health: the process answers (no I/O). GET /ready: it can serve (readiness.ts); 503
 * naming what is not ready. Neither needs a key, and admission never refuses them.
 */
export function healthRoutes({ config, source, drawing, basemaps }: Services) {
  const dataDir = resolve(config.dataDir);
  return new Hono<AppEnv>()
    .get('/health', (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json({ status: 'ok' });
    })
    .get('/ready', async (c) => {
      const { ready, source: described, checks } = await checkReadiness({ dataDir, source, drawing, basemaps });
      c.header('Cache-Control', 'no-store');
      return c.json({ status: ready ? 'ready' : 'not ready', ...(described ? { source: described } : {}), checks }, ready ? 200 : 503);
    });
}
