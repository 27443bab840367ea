import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Services } from '../app.ts';
import { createKeyRing, isLoopbackHost } from '../auth/keys.ts';
import { createBasemapRegistry } from '../basemap/registry.ts';
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
  const basemaps = await createBasemapRegistry(config.basemaps, logger).catch(async (error: unknown) => {
    await Promise.all([catalog.close(), renderer.close()]);
    throw error;
  });
  return {
    config,
    catalog,
    renderer,
    basemaps,
    themes,
    keys,
    logger,
    async close() {
      await Promise.all([catalog.close(), renderer.close(), basemaps.close()]);
    },
  };
}

/** URLs that work right away against the bundled data (an image, a map), for the start-up message. */
export async function exampleUrls(services: Services, origin: string): Promise<string[]> {
  const [first] = await services.catalog.list();
  if (first === undefined) return [];
  const key = services.keys.authenticate('shapeshot-demo') ? 'shapeshot-demo' : '<your key>';
  const file = encodeURIComponent(first);
  return [
    `${origin}/REST/v1/shapefiles/images?file=${file}&fid=0&format=png&key=${key}`,
    `${origin}/REST/v1/shapefiles/map?file=${file}&format=png&key=${key}`,
  ];
}
