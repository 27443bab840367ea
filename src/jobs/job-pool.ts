/**
 * The drawing workers as a pool of jobs: the images and maps drawn and /ogc's pages and items
 * read, one call per step of a request, each a job on the pool (its kind, input and output
 * from job-table.ts), cancelled by the request's signal.
 */
import { realpathSync } from 'node:fs';
import { packedBuffers } from '../geometry/packed-shapes.ts';
import type { RemoteSetting } from '../sources/registry.ts';
import { createWorkerPool, type PoolStats } from '../workers/worker-pool.ts';
import { FilesChangedError } from '../errors.ts';
import type { DrawingWorkerOptions } from '../job-context/context.ts';
import type { JobInput, JobKind, JobOutput } from './job-table.ts';

export interface JobPoolOptions {
  workers: number;
  /** The local data folder, when the data is not read from `remote`. */
  dataDir: string;
  /** A remote data source, its block cache's bytes per worker, and the bytes a job may fetch from it. */
  remote?: { setting: RemoteSetting; blockCacheBytes: number; maxSourceBytes: number };
  /** Bytes of decoded shapes kept, across all workers. */
  featureCacheBytes: number;
  pngCompression: number;
  /** Told what workers want logged. */
  onNote(text: string): void;
  /** Told when a job found a remote shapefile's files changed or gone (FilesChangedError): the catalog it was given is out of date. */
  onFilesChanged?(): void;
}

export interface JobPool {
  /** Runs a job of `kind` on a worker; aborting `signal` drops it while it waits, or stops it at its next checkpoint. */
  run<K extends JobKind>(kind: K, input: JobInput<K>, signal: AbortSignal): Promise<JobOutput<K>>;
  readonly workers: number;
  readonly stats: PoolStats;
  /** See WorkerPool.onJobHandedOver. */
  onJobHandedOver(listener: (kind: JobKind) => void): () => void;
  /** Resolves once every drawing worker has loaded. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Three files a shapefile, at most, per worker: plenty of sets, and far below the process's limit. */
const MAX_OPEN_SHAPEFILES = 64;

/**
 * Buffers of a job's input that move to its worker rather than being copied: a map's listed
 * features came packed from its map-features job and go back as they are; the ids of those
 * in view (4 bytes each) are copied.
 */
const MOVED: { [K in JobKind]?: (input: JobInput<K>) => ArrayBuffer[] } = {
  map: (job) => ('shapes' in job.features ? packedBuffers(job.features.shapes) : []),
};

export function createJobPool(options: JobPoolOptions): JobPool {
  const pool = createWorkerPool<DrawingWorkerOptions>({
    entry: new URL('./worker.ts', import.meta.url),
    name: 'job pool',
    workers: options.workers,
    options: {
      realDataDir: options.remote ? '' : realpathSync(options.dataDir),
      ...(options.remote ? { remote: options.remote } : {}),
      cacheBytes: Math.floor(options.featureCacheBytes / options.workers),
      maxOpenShapefiles: MAX_OPEN_SHAPEFILES,
      pngCompression: options.pngCompression,
    },
    onNote: options.onNote,
  });
  return {
    run: <K extends JobKind>(kind: K, input: JobInput<K>, signal: AbortSignal) => {
      const moved = MOVED[kind] as ((input: JobInput<K>) => ArrayBuffer[]) | undefined;
      return pool.run<JobOutput<K>>(kind, input, { signal, transfer: moved?.(input) ?? [] }).catch((error: unknown) => {
        if (error instanceof FilesChangedError) options.onFilesChanged?.();
        throw error;
      });
    },
    workers: options.workers,
    // The pool hands over only the kinds run() was given.
    onJobHandedOver: (listener) => pool.onJobHandedOver(listener as (kind: string) => void),
    ready: () => pool.ready(),
    get stats() {
      return pool.stats;
    },
    close: () => pool.close(),
  };
}
