/**
 * The shapefiles a drawing worker reads, whatever the data source: what a job handler is run
 * against. A local folder's are read by positional reads as they come (open-shapefiles.ts):
 * the handler runs once. A remote source's are read in phases, the handler run again once
 * the bytes it missed have come (remote-shapefiles.ts).
 */
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import type { FeatureCache } from '../shapefile/feature-cache.ts';
import type { OpenShapefiles } from '../shapefile/open-shapefiles.ts';
import type { JobContext } from '../workers/serve-jobs.ts';

/** A job's work on the shapefiles it is given. */
export type ShapefileJob<T> = (shapefiles: OpenShapefiles) => T | Promise<T>;

export interface WorkerShapefiles {
  /** The decoded shapes this thread keeps; undefined when caching is off. */
  readonly cache: FeatureCache | undefined;
  /** What `job` gives, run against this worker's shapefiles. */
  run<T>(job: ShapefileJob<T>, context: { checkpoint: Checkpoint; waitFor: JobContext['waitFor'] }): Promise<T>;
  close(): void;
}

/** A local folder's shapefiles: the job runs once, its reads never wait. */
export function localShapefiles(shapefiles: OpenShapefiles): WorkerShapefiles {
  return {
    cache: shapefiles.cache,
    run: async (job) => job(shapefiles),
    close: () => shapefiles.close(),
  };
}
