import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Services } from '../app-services.ts';
import { createKeyRing, demoKeyAllowed } from '../auth/keys.ts';
import { createUsageCounter } from '../auth/usage-counter.ts';
import { createBasemapRegistry } from '../basemap/registry.ts';
import type { Config } from '../config/schema.ts';
import { DEMO_KEY } from '../config/schema.ts';
import { createDrawingPool } from '../jobs/drawing-pool.ts';
import { createServiceMetrics } from '../metrics/service-metrics.ts';
import { createDataFolder } from '../shapefile/data-folder.ts';
import { isRemote, openDataSource, sourceSetting } from '../sources/registry.ts';
import { createSourceCatalog } from '../sources/source-catalog.ts';
import { loadThemes } from '../themes/load-themes.ts';

/** Makes the app's services from a validated configuration; close() releases them. */
export async function createServices(config: Config, logger: Logger): Promise<Services & { close(): Promise<void> }> {
  const themes = loadThemes(resolve(config.themesDir));
  const setting = sourceSetting(config);
  // A remote source is made here for the catalog and /ready; each drawing worker makes its own to read from.
  const source = isRemote(setting) ? await openDataSource(setting, logger.child({ dataSource: setting.plugin })) : undefined;
  const sourceCatalog = source && createSourceCatalog(source, { ...config, requestTimeoutMs: config.limits.requestTimeoutMs });
  const catalog = sourceCatalog ?? createDataFolder(resolve(config.dataDir), config.fileCheckMs);
  const drawing = createDrawingPool({
    workers: config.render.workers || Math.max(1, availableParallelism()),
    dataDir: resolve(config.dataDir),
    ...(isRemote(setting) ? { remote: { setting, blockCacheBytes: config.cache.sourceBytes, maxSourceBytes: config.limits.maxSourceBytes } } : {}),
    featureCacheBytes: config.cache.featureBytes,
    pngCompression: config.render.pngCompression,
    onNote: (text) => logger.warn(text),
    onFilesChanged: () => sourceCatalog?.listAgain(),
  });
  const keys = createKeyRing(config.keys, { allowDemoKey: demoKeyAllowed(config) });
  const metrics = config.metrics ? createServiceMetrics(drawing) : undefined;
  const basemaps = await createBasemapRegistry(config.basemaps, logger, metrics?.forProvider).catch(async (error: unknown) => {
    await Promise.all([drawing.close(), source?.close?.()]);
    throw error;
  });
  return {
    config,
    catalog,
    ...(source && sourceCatalog ? { source, sourceHealth: sourceCatalog.health } : {}),
    drawing,
    basemaps,
    themes,
    keys,
    usage: createUsageCounter(),
    logger,
    metrics,
    async close() {
      await Promise.all([drawing.close(), basemaps.close(), source?.close?.()]);
    },
  };
}

/** The key the start-up URLs carry: the demo key while it works (no keys configured), else a placeholder for the user's own. */
export function exampleKey(services: Services): string {
  return services.keys.authenticate(DEMO_KEY) ? DEMO_KEY : '<your key>';
}
