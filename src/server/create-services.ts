/**
 * Everything the app is given (app-services.ts), made once at start-up: the data source or
 * folder, the worker pools, the themes, the basemap plugins, the keys and the store of their
 * limits. The app itself opens nothing; what was opened is closed again by close().
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Services } from '../app-services.ts';
import { createKeyRing } from '../auth/keys.ts';
import { isLoopbackHost, makeStartUpKey } from '../auth/start-up-key.ts';
import { createBasemapRegistry } from '../basemap/registry.ts';
import type { Config } from '../config/schema.ts';
import { createJobPool } from '../jobs/job-pool.ts';
import type { LimitStore } from '../limits/limit-store.ts';
import { createLocalLimits } from '../limits/local-limits.ts';
import { withoutRevoked, type Revocations } from '../limits/revocations.ts';
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
  const jobs = createJobPool({
    workers: config.render.workers || Math.max(1, availableParallelism()),
    dataDir: resolve(config.dataDir),
    ...(isRemote(setting) ? { remote: { setting, blockCacheBytes: config.cache.sourceBytes, maxSourceBytes: config.limits.maxSourceBytes } } : {}),
    featureCacheBytes: config.cache.featureBytes,
    pngCompression: config.render.pngCompression,
    onNote: (text) => logger.warn(text),
    onFilesChanged: () => sourceCatalog?.listAgain(),
  });
  // A server started without keys makes the start-up key (docs/configuration.md, "The start-up key").
  const startUpKey = config.keys.length === 0 ? { key: makeStartUpKey(), listensOnLoopback: isLoopbackHost(config.host) } : undefined;
  const keys = createKeyRing(config.keys, { startUpKey });
  const { limits, revocations } = await openLimits(config, logger);
  const metrics = config.metrics ? createServiceMetrics(jobs, limits.shared) : undefined;
  const basemaps = await createBasemapRegistry(config.basemaps, logger, metrics?.forProvider).catch(async (error: unknown) => {
    await Promise.all([jobs.close(), source?.close?.(), limits.close()]);
    throw error;
  });
  return {
    config,
    catalog,
    ...(source && sourceCatalog ? { source, sourceHealth: sourceCatalog.health } : {}),
    jobs,
    basemaps,
    themes,
    keys: revocations ? withoutRevoked(keys, revocations) : keys,
    limits,
    ...(revocations ? { revocations } : {}),
    logger,
    metrics,
    async close() {
      await Promise.all([jobs.close(), basemaps.close(), source?.close?.(), limits.close()]);
    },
  };
}

/**
 * The keys' limits: in Redis, shared by instances, when limits.store names one (its module,
 * and ioredis with it, loaded only then), else in this instance's memory.
 */
async function openLimits(config: Config, logger: Logger): Promise<{ limits: LimitStore; revocations?: Revocations }> {
  if (config.limits.store === undefined) return { limits: createLocalLimits() };
  const { openSharedLimits } = await import('../limits/shared-limits.ts');
  return openSharedLimits(config.limits.store, config.limits, logger);
}
