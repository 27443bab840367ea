/**
 * The type of what the app is given (configuration, catalog, worker pools, plugins, keys and
 * their limits), in a file of its own below the routes and app.ts in the layers
 * (test/architecture.test.ts), so that each route can name what it takes without importing the
 * app that composes them. server/create-services.ts makes it.
 */
import type { Logger } from 'pino';
import type { KeyRing } from './auth/keys.ts';
import type { BasemapRegistry } from './basemap/registry.ts';
import type { Config } from './config/schema.ts';
import type { JobPool } from './jobs/job-pool.ts';
import type { LimitStore } from './limits/limit-store.ts';
import type { Revocations } from './limits/revocations.ts';
import type { ServiceMetrics } from './metrics/service-metrics.ts';
import type { Theme } from './params/theme.ts';
import type { DataSource } from './plugin-contract/data-source-plugin.ts';
import type { ShapefileCatalog } from './shapefile/shapefile-catalog.ts';
import type { CatalogHealth } from './sources/source-catalog.ts';

/** Everything the app needs, made at start-up (server/create-services.ts); the app itself does no I/O setup. */
export interface Services {
  config: Config;
  catalog: ShapefileCatalog;
  /** The remote data source the catalog lists (HTTP, S3, a plugin's); absent for a local folder. */
  source?: DataSource;
  /** With `source`: what its catalog left out and what failed (/ready). */
  sourceHealth?: () => CatalogHealth;
  jobs: JobPool;
  basemaps: BasemapRegistry;
  themes: ReadonlyMap<string, Theme>;
  keys: KeyRing;
  /** Each key's rate limit, requests in progress and requests today and this month: in memory, or shared by instances (limits.store). */
  limits: LimitStore;
  /** With a shared store: the keys revoked by a reload of any instance, refused by this one too. */
  revocations?: Revocations;
  logger: Logger;
  /** What /metrics shows; absent when configuration `metrics` is false. */
  metrics?: ServiceMetrics;
}
