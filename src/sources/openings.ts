/**
 * The opening bytes of each shapefile version a remote source serves (headers, .prj, .cpg:
 * shapefile/opening-bytes.ts), fetched on the main thread once per version and handed to
 * every job that reads it: the drawing workers then open a version without a round trip of
 * their own, and a worker's first job costs what any other's does. Kept in a cache bounded
 * in bytes.
 *
 * After each listing the shapefiles listed are fetched ahead, four at a time, while they fit
 * in half the cache: a first request for a feature then costs the source its .shx entry, its
 * record and its .dbf row (issue 22: at most three range requests cold), not its headers
 * too. One pass runs at a time (a newer listing takes over its queue), and a pass ends at
 * the first failure other than a changed file: a source that lists but refuses reads is not
 * asked for every file of every listing.
 *
 * A request is handed only what is held: it never waits for these bytes (a 304 costs a
 * catalog look-up, not a range read, and a source that does not answer holds nobody up
 * here). What it lacks is fetched in the background for the requests after it, while its
 * own worker reads what it needs itself, with the request's signal and its errors.
 */
import { isDataSourceUnavailable, isFileChanged } from '../plugin-contract/data-source-errors.ts';
import type { DataSource, SourceStat } from '../plugin-contract/data-source-plugin.ts';
import { FILE_KINDS, type FileKind, type ShapefileFiles } from '../shapefile/file-set.ts';
import { openingBytes, trimmedOpening } from '../shapefile/opening-bytes.ts';
import { arrayBytes, byteBoundedCache } from '../structures/byte-bounded-cache.ts';

type OpeningBytes = NonNullable<ShapefileFiles['opening']>;

export interface Openings {
  /** The opening bytes held of the files of `files` at their versions; those missing are fetched in the background. */
  held(files: ShapefileFiles): OpeningBytes;
  /** Fetches ahead those of `listed` (with their versions), while they fit in half the cache. */
  prefetch(listed: readonly ShapefileFiles[]): void;
}

/** Some thousands of shapefiles of a few fields each. */
const OPENINGS_CACHE_BYTES = 8 << 20;
/** Shapefiles a prefetch has under way at once: a listing of thousands must not flood the source. */
const PREFETCH_PARALLEL = 4;

/** How a fetch ended: a changed file is the listing's news, not the source's failure. */
type Fetched = 'held' | 'changed' | 'failed';

/**
 * `onRead` is told how each fetch that read or failed went: the reason a read failed (a
 * source that ignores Range, one that refuses reads), or undefined once one read again.
 */
export function createOpenings(source: DataSource, onRead: (problem: string | undefined) => void = () => undefined, maxBytes = OPENINGS_CACHE_BYTES): Openings {
  const cache = byteBoundedCache<Uint8Array>(maxBytes, arrayBytes);
  const inFlight = new Map<string, Promise<Fetched>>();
  // Shared by every request that asks: no request's signal may stop it; the source's own timeout and retry bound it.
  const never = new AbortController().signal;
  const keyOf = (name: string, stat: SourceStat) => `${name}\n${stat.version}`;

  const fetchOpening = (kind: FileKind, name: string, stat: SourceStat): Promise<Fetched> => {
    const key = keyOf(name, stat);
    if (cache.get(key) !== undefined) return Promise.resolve('held');
    let fetching = inFlight.get(key);
    if (fetching === undefined) {
      // Through then(): a plugin's read that throws at once is a failed fetch, not an unhandled rejection.
      fetching = Promise.resolve()
        .then(() => source.read(name, 0, openingBytes(kind, stat.size), never, stat.version))
        .then(
          (bytes): Fetched => {
            cache.set(key, trimmedOpening(kind, bytes));
            onRead(undefined);
            return 'held';
          },
          (error: unknown): Fetched => {
            if (isFileChanged(error)) return 'changed';
            onRead(isDataSourceUnavailable(error) ? error.message : `Data source ${source.describe()} failed a read.`);
            return 'failed';
          },
        )
        .finally(() => inFlight.delete(key));
      inFlight.set(key, fetching);
    }
    return fetching;
  };

  /** Each file of `files` with its version, by kind. */
  const filesOf = ({ paths, versions }: ShapefileFiles) =>
    FILE_KINDS.flatMap((kind) => (paths[kind] !== undefined && versions?.[kind] !== undefined ? [{ kind, name: paths[kind], stat: versions[kind] }] : []));

  let queue: readonly ShapefileFiles[] = [];
  let next = 0;
  let lanes = 0;
  const lane = async () => {
    while (next < queue.length && cache.bytes < maxBytes / 2) {
      const fetched = await Promise.all(filesOf(queue[next++]).map(({ kind, name, stat }) => fetchOpening(kind, name, stat)));
      if (fetched.includes('failed')) next = queue.length;
    }
  };

  return {
    held(files) {
      const opening: OpeningBytes = {};
      for (const { kind, name, stat } of filesOf(files)) {
        const bytes = cache.get(keyOf(name, stat));
        if (bytes !== undefined) opening[kind] = bytes;
        else void fetchOpening(kind, name, stat);
      }
      return opening;
    },
    prefetch(listed) {
      queue = listed;
      next = 0;
      for (; lanes < PREFETCH_PARALLEL; lanes++) void lane().finally(() => lanes--);
    },
  };
}
