import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Services } from '../app.ts';
import { createKeyRing, isLoopbackHost } from '../auth/keys.ts';
import type { Config } from '../config/schema.ts';
import { createRenderPool } from '../raster/render-pool.ts';
import { createCatalog } from '../shapefile/catalog.ts';
import { loadThemes } from '../themes/load-themes.ts';

/** Makes the app's services from a validated configuration; close() releases them. */
export async function createServices(config: Config, logger: Logger): Promise<Services & { close(): Promise<void> }> {
  const themes = loadThemes(resolve(config.themesDir));
  const catalog = createCatalog({ dataDir: resolve(config.dataDir), cacheBytes: config.cache.featureBytes, logger });
  const renderer = createRenderPool({
    workers: config.render.workers || Math.max(1, availableParallelism()),
    maxQueue: config.render.maxQueue,
    pngCompression: config.render.pngCompression,
  });
  const keys = createKeyRing(config.keys, { allowDemoKey: config.demoKey && isLoopbackHost(config.host) });
  return {
    config,
    catalog,
    renderer,
    themes,
    keys,
    logger,
    async close() {
      await Promise.all([catalog.close(), renderer.close()]);
    },
  };
}

/** A URL that works right away against the bundled data, for the start-up message. */
export async function exampleUrl(services: Services, origin: string): Promise<string | undefined> {
  const [first] = await services.catalog.list();
  if (first === undefined) return undefined;
  const key = services.keys.authenticate('shapeshot-demo') ? 'shapeshot-demo' : '<your key>';
  return `${origin}/REST/v1/shapefiles/images?file=${encodeURIComponent(first)}&fid=0&format=png&key=${key}`;
}
