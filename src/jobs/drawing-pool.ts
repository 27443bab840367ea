/**
 * The drawing workers, as the operations use them: one call per step of a request, each a
 * job on the pool, cancelled by the request's signal.
 */
import { realpathSync } from 'node:fs';
import { transferablesOf } from '../geometry/shape.ts';
import { createWorkerPool, type PoolStats } from '../workers/worker-pool.ts';
import type { DrawingWorkerOptions } from '../job-context/context.ts';
import type { DrawnImage, ImageJob } from '../drawing/draw-image.ts';
import type { MapJob } from '../drawing/draw-map.ts';
import type { CollectionsJob, DescribedCollections, ItemFeature, ItemJob, ItemsJob, ItemsPage } from '../features/feature-items.ts';
import type { MapFeatures, MapFeaturesJob } from '../drawing/map-features.ts';
import type { MapInView, MapInViewJob } from '../drawing/map-in-view.ts';
import type { SelectJob, Selection } from '../drawing/select-features.ts';

export interface DrawingPoolOptions {
  workers: number;
  dataDir: string;
  /** Bytes of decoded shapes kept, across all workers. */
  featureCacheBytes: number;
  pngCompression: number;
  /** Told what workers want logged. */
  onNote(text: string): void;
}

export interface DrawingPool {
  drawImage(job: ImageJob, signal: AbortSignal): Promise<DrawnImage>;
  mapFeatures(job: MapFeaturesJob, signal: AbortSignal): Promise<MapFeatures>;
  /** A map without fid: the records in its view, its budgets checked over them. */
  mapInView(job: MapInViewJob, signal: AbortSignal): Promise<MapInView>;
  drawMap(job: MapJob, signal: AbortSignal): Promise<DrawnImage>;
  /** The features a `where=` filter selects. */
  select(job: SelectJob, signal: AbortSignal): Promise<Selection>;
  /** OGC API – Features: collections, a page of items, one item. */
  describeCollections(job: CollectionsJob, signal: AbortSignal): Promise<DescribedCollections>;
  featureItems(job: ItemsJob, signal: AbortSignal): Promise<ItemsPage>;
  featureItem(job: ItemJob, signal: AbortSignal): Promise<ItemFeature>;
  readonly workers: number;
  readonly stats: PoolStats;
  /** See WorkerPool.onJobHandedOver: the kind is the step ('image', 'map-features', 'map', 'select', 'items', …). */
  onJobHandedOver(listener: (kind: string) => void): () => void;
  /** Resolves once every drawing worker has loaded. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Three files a shapefile, at most, per worker: plenty of sets, and far below the process's limit. */
const MAX_OPEN_SHAPEFILES = 64;

export function createDrawingPool(options: DrawingPoolOptions): DrawingPool {
  const pool = createWorkerPool<DrawingWorkerOptions>({
    entry: new URL('./worker.ts', import.meta.url),
    name: 'drawing pool',
    workers: options.workers,
    options: {
      realDataDir: realpathSync(options.dataDir),
      cacheBytes: Math.floor(options.featureCacheBytes / options.workers),
      maxOpenShapefiles: MAX_OPEN_SHAPEFILES,
      pngCompression: options.pngCompression,
    },
    onNote: options.onNote,
  });
  return {
    drawImage: (job, signal) => pool.run('image', job, { signal }),
    mapFeatures: (job, signal) => pool.run('map-features', job, { signal }),
    mapInView: (job, signal) => pool.run('map-in-view', job, { signal }),
    // Listed features came from mapFeatures() and go back without being copied; the ids of
    // those in view (4 bytes each) are copied.
    drawMap: (job, signal) =>
      pool.run('map', job, { signal, transfer: Array.isArray(job.features) ? transferablesOf(job.features.map((f) => f.shape)) : [] }),
    select: (job, signal) => pool.run('select', job, { signal }),
    describeCollections: (job, signal) => pool.run('collections', job, { signal }),
    featureItems: (job, signal) => pool.run('items', job, { signal }),
    featureItem: (job, signal) => pool.run('item', job, { signal }),
    workers: options.workers,
    onJobHandedOver: (listener) => pool.onJobHandedOver(listener),
    ready: () => pool.ready(),
    get stats() {
      return pool.stats;
    },
    close: () => pool.close(),
  };
}
