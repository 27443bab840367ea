/**
 * The shapefiles a worker thread has open: one version per name, checked against the disk
 * on every use (a stat per file), so a file added, replaced or removed is seen at once, and
 * reopened (and checked to lie inside the data folder) when it changed.
 */
import { NotFoundError } from '../errors.ts';
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import { createFeatureCache, type FeatureCache } from './feature-cache.ts';
import { openShapefile, type OpenShapefile, type ShapefileFiles } from './file-set.ts';

export interface OpenShapefiles {
  /** The current version of `files`; NotFoundError when it is gone or lies outside the data folder. */
  open(files: ShapefileFiles, checkpoint: Checkpoint): OpenShapefile;
  /** The decoded shapes this thread keeps for all its shapefiles; undefined when caching is off. */
  readonly cache: FeatureCache | undefined;
  close(): void;
}

export interface OpenShapefilesOptions {
  /** The data folder's real path (symlinks resolved). */
  realRoot: string;
  /** Bytes of decoded shapes this thread keeps; 0 keeps none. */
  cacheBytes: number;
  /** Bounds open file descriptors (up to five per shapefile). */
  maxOpen: number;
  /** Told once per opened version about side files it does not use. */
  onProblem(problem: string): void;
}

export function createOpenShapefiles(options: OpenShapefilesOptions): OpenShapefiles {
  const cache = createFeatureCache(options.cacheBytes);
  // Insertion order is use order: a use moves the entry to the end.
  const open = new Map<string, OpenShapefile>();

  const forget = (key: string) => {
    open.get(key)?.close();
    open.delete(key);
  };

  return {
    open(files, checkpoint) {
      const key = files.name.toLowerCase();
      const current = open.get(key);
      if (current?.isCurrent(files)) {
        open.delete(key);
        open.set(key, current);
        return current;
      }
      forget(key);
      const opened = openShapefile(files, options.realRoot, cache, checkpoint);
      if (!opened) throw new NotFoundError(`Shapefile '${files.name}' was not found.`);
      for (const problem of opened.problems) options.onProblem(`Shapefile '${files.name}': ${problem}`);
      open.set(key, opened);
      while (open.size > options.maxOpen) forget(open.keys().next().value!);
      return opened;
    },
    cache,
    close() {
      for (const key of [...open.keys()]) forget(key);
    },
  };
}
