/**
 * What every job on a drawing worker is started with and works with, whatever its kind
 * (drawing/ and ogc-jobs/ alike): one place, below both, so that neither imports the other.
 */
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import type { Lap } from '../stages.ts';
import type { Rasterizer } from '../raster/resvg.js';
import type { OpenShapefiles } from '../shapefile/open-shapefiles.ts';
import type { RemoteSetting } from '../sources/registry.ts';

/** What every drawing worker is started with. */
export interface DrawingWorkerOptions {
  /** The data folder's real path: nothing outside it is read. Unused when `remote` is set. */
  realDataDir: string;
  /** The remote data source the shapefiles are read from, in place of the folder. */
  remote?: {
    setting: RemoteSetting;
    /** Bytes of its files' blocks each worker keeps (cache.sourceBytes). */
    blockCacheBytes: number;
    /** Bytes one job may fetch from it (limits.maxSourceBytes). */
    maxSourceBytes: number;
  };
  /** Bytes of decoded shapes each worker keeps. */
  cacheBytes: number;
  maxOpenShapefiles: number;
  /** zlib level of the PNGs, 0–9. */
  pngCompression: number;
}

/** What a drawing job has to work with on its worker thread. */
export interface DrawingContext {
  shapefiles: OpenShapefiles;
  rasterizer: Rasterizer;
  /** zlib level of the PNGs, 0–9. */
  compressionLevel: number;
  /** Throws once the job is to stop (its client left, or its time is up). */
  checkpoint: Checkpoint;
  /** Marks the end of a stage, for the per-stage breakdown. */
  lap: Lap;
}

/** Counters drawing jobs add to their pool's stats (PoolStats.counts): the feature cache's lookups on the workers. */
export const FEATURE_CACHE_HITS = 'featureCacheHits';
export const FEATURE_CACHE_MISSES = 'featureCacheMisses';
