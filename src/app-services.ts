import type { Logger } from 'pino';
import type { KeyRing } from './auth/keys.ts';
import type { UsageCounter } from './auth/usage-counter.ts';
import type { BasemapRegistry } from './basemap/registry.ts';
import type { Config } from './config/schema.ts';
import type { DrawingPool } from './jobs/drawing-pool.ts';
import type { ServiceMetrics } from './metrics/service-metrics.ts';
import type { Theme } from './params/theme.ts';
import type { DataSource } from './plugin-contract/data-source-plugin.ts';
import type { DataFolder } from './shapefile/data-folder.ts';
import type { CatalogHealth } from './sources/source-catalog.ts';

/** Everything the app needs, made at start-up (server/create-services.ts); the app itself does no I/O setup. */
export interface Services {
  config: Config;
  catalog: DataFolder;
  /** The remote data source the catalog lists (HTTP, S3, a plugin's); absent for a local folder. */
  source?: DataSource;
  /** With `source`: what its catalog left out and what failed (/ready). */
  sourceHealth?: () => CatalogHealth;
  drawing: DrawingPool;
  basemaps: BasemapRegistry;
  themes: ReadonlyMap<string, Theme>;
  keys: KeyRing;
  /** Each key's requests today and this month, which its quota bounds (kept across reloads: keys.ts). */
  usage: UsageCounter;
  logger: Logger;
  /** What /metrics shows; absent when configuration `metrics` is false. */
  metrics?: ServiceMetrics;
}
