/**
 * The opening bytes of each shapefile version a remote source serves (headers, .prj, .cpg:
 * shapefile/opening-bytes.ts), fetched on the main thread once per version and handed to
 * every job that reads it: the drawing workers then open a version without a round trip of
 * their own, and a worker's first job costs what any other's does. Kept in a cache bounded
 * in bytes.
 *
 * After each listing the first hundred shapefiles listed are fetched ahead, four at a time,
 * while they fit in half the cache: a first request for a feature then costs the source its .shx entry, its
 * record and its .dbf row (issue 22: at most three range requests cold), not its headers
 * too. One pass runs at a time (a newer listing takes over its queue), and a pass ends at
 * the first failure of the source (one no retry fixed: it may be down); a file the source
 * refuses is left behind, and not asked again by later passes at that version: a source that
 * lists but refuses reads is asked for each version once, not for every file of every listing.
 *
 * An image request is handed only what is held: it never waits for these bytes (a 304 costs a
 * catalog look-up, not a range read, and a source that does not answer holds nobody up
 * here). What it lacks is fetched in the background, four shapefiles at a time and before the
 * listing's, for the requests after it, while its own worker reads what it needs itself.
 *
 * A page of /ogc/collections checks its files here first (check): it waits for their opening
 * bytes with its own signal, so that a file the source refuses (a 403 on that object) is left
 * out of the page and named on /ready, not made the whole page's failure, while a source that
 * fails (5xx, no answer) fails the page (docs/ogc.md, "Collections").
 */
import { abortable } from '../cancellation/abortable.ts';
import { isDataSourceUnavailable, isFileChanged } from '../plugin-contract/data-source-errors.ts';
import type { DataSource, SourceStat } from '../plugin-contract/data-source-plugin.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';
import { FILE_KINDS, type FileKind } from '../shapefile/file-kinds.ts';
import { openingBytes, trimmedOpening } from '../shapefile/opening-bytes.ts';
import { arrayBytes, byteBoundedCache } from '../structures/byte-bounded-cache.ts';

type OpeningBytes = NonNullable<ShapefileFiles['opening']>;

/** What checking a page's shapefiles found: those to describe (their opening bytes given) and those the source refused. */
export interface CheckedShapefiles {
  passed: ShapefileFiles[];
  /** A sentence each, naming the file and the source. */
  refused: string[];
}

export interface Openings {
  /** The opening bytes held of the files of `files` at their versions; those missing are fetched in the background. */
  held(files: ShapefileFiles): OpeningBytes;
  /** Fetches ahead those of `listed` (with their versions), while they fit in half the cache. */
  prefetch(listed: readonly ShapefileFiles[]): void;
  /**
   * Waits (with `signal`) for the opening bytes of each of `shapefiles`, fetching those not
   * held, a few at a time. A shapefile one of whose files the source refuses, or that is gone,
   * is left out; a failure of the source (one no retry fixed) is thrown.
   */
  check(shapefiles: readonly ShapefileFiles[], signal: AbortSignal | undefined): Promise<CheckedShapefiles>;
  /** The files the source refused at their latest versions, why (the first few), until one is read again. */
  refused(): string[];
}

/** Some thousands of shapefiles of a few fields each. */
const OPENINGS_CACHE_BYTES = 8 << 20;
/** Shapefiles whose openings are fetched at once, in the background or for a page: a listing of thousands must not flood the source. */
const PARALLEL_SHAPEFILES = 4;
/**
 * Shapefiles a listing's pass fetches ahead, the first in the catalog's order: as many as the
 * first page of /ogc/collections from a remote source describes (docs/ogc.md), which then
 * reads no opening bytes of its own. A bucket of 100,000 costs the source and the main thread
 * no more at each start than one of 100 (issue 29: fetched ahead whole, 3,000 shapefiles took
 * the main thread 9,000 requests, about 6 s of its time, while /ogc pages waited for it).
 */
const MAX_PREFETCHED = 100;
/** Shapefiles asked for by requests and waiting to be fetched in the background: the latest are kept. */
const MAX_WANTED = 1000;
/** Refused files remembered (by name), so that passes skip them; health reports the first few. */
const MAX_REFUSED = 1000;
const MAX_REPORTED_REFUSED = 20;

/**
 * How a fetch ended. A changed file is the listing's news, not the source's failure; a refusal
 * (the source answered that file with what no retry changes: a 403, the whole file for a
 * range) is that file's; any other failure is the source's.
 */
type Fetched = { kind: 'held'; bytes: Uint8Array } | { kind: 'changed' } | { kind: 'refused'; problem: string } | { kind: 'failed'; error: unknown };

/** Whether a source's error refuses one file for good rather than saying the source is down (no Retry-After: retrying cannot help). */
function isRefusal(error: unknown): error is Error {
  return isDataSourceUnavailable(error) && error.retryAfterSeconds === null;
}

/**
 * `onRead` is told how each fetch that read or failed went: the reason a read failed (a
 * source that ignores Range, one that refuses reads), or undefined once one read again.
 */
export function createOpenings(source: DataSource, onRead: (problem: string | undefined) => void = () => undefined, maxBytes = OPENINGS_CACHE_BYTES): Openings {
  const cache = byteBoundedCache<Uint8Array>(maxBytes, arrayBytes);
  const inFlight = new Map<string, Promise<Fetched>>();
  /** By file name: the version refused, and why. */
  const refusals = new Map<string, { version: string; problem: string }>();
  const keyOf = (name: string, stat: SourceStat) => `${name}\n${stat.version}`;

  const fetchOpening = (kind: FileKind, name: string, stat: SourceStat): Promise<Fetched> => {
    const key = keyOf(name, stat);
    const bytes = cache.get(key);
    if (bytes !== undefined) return Promise.resolve({ kind: 'held', bytes });
    let fetching = inFlight.get(key);
    if (fetching === undefined) {
      // Shared by every request that asks: no request's signal may stop it; the source's own timeout and retry bound it.
      const never = new AbortController().signal;
      // Through then(): a plugin's read that throws at once is a failed fetch, not an unhandled rejection.
      fetching = Promise.resolve()
        .then(() => source.read(name, 0, openingBytes(kind, stat.size), never, stat.version))
        .then(
          (read): Fetched => {
            const opening = trimmedOpening(kind, read);
            cache.set(key, opening);
            refusals.delete(name);
            onRead(undefined);
            return { kind: 'held', bytes: opening };
          },
          (error: unknown): Fetched => {
            if (isFileChanged(error)) return { kind: 'changed' };
            const problem = isDataSourceUnavailable(error) ? error.message : `Data source ${source.describe()} failed a read.`;
            onRead(problem);
            if (!isRefusal(error)) return { kind: 'failed', error };
            // Named first: a plugin's sentence need not name the file.
            const refused = `${name}: ${problem}`;
            refusals.delete(name);
            refusals.set(name, { version: stat.version, problem: refused });
            if (refusals.size > MAX_REFUSED) refusals.delete(refusals.keys().next().value!);
            return { kind: 'refused', problem: refused };
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

  /** The shapefile's files fetched, together; how each ended, by kind. */
  const fetchShapefile = async (files: ShapefileFiles) =>
    Promise.all(filesOf(files).map(async ({ kind, name, stat }) => ({ kind, fetched: await fetchOpening(kind, name, stat) })));

  const refusedAtVersion = (files: ShapefileFiles) => filesOf(files).some(({ name, stat }) => refusals.get(name)?.version === stat.version);

  /** The shapefiles requests asked for (by name, latest last), fetched before the listing's queue. */
  const wanted = new Map<string, ShapefileFiles>();
  let queue: readonly ShapefileFiles[] = [];
  let next = 0;
  let lanes = 0;

  const nextToFetch = (): ShapefileFiles | undefined => {
    for (const [name, files] of wanted) {
      wanted.delete(name);
      return files;
    }
    while (next < queue.length && cache.bytes < maxBytes / 2) {
      const files = queue[next++];
      if (!refusedAtVersion(files)) return files;
    }
    return undefined;
  };

  const lane = async () => {
    for (let files = nextToFetch(); files !== undefined; files = nextToFetch()) {
      const fetched = await fetchShapefile(files);
      // The source fails: this pass, and what requests asked for, end here; the next listing or request starts again.
      if (fetched.some(({ fetched: { kind } }) => kind === 'failed')) {
        next = queue.length;
        wanted.clear();
      }
    }
  };
  const startLanes = () => {
    for (; lanes < PARALLEL_SHAPEFILES; lanes++) void lane().finally(() => lanes--);
  };

  /** One shapefile checked: its files' opening bytes, or why it is left out (undefined: gone); the source's failure thrown. */
  const checkOne = async (files: ShapefileFiles): Promise<{ files: ShapefileFiles } | { problem: string | undefined }> => {
    const opening: OpeningBytes = {};
    let leftOut: { problem: string | undefined } | undefined;
    for (const { kind, fetched } of await fetchShapefile(files)) {
      if (fetched.kind === 'failed') throw fetched.error;
      if (fetched.kind === 'held') opening[kind] = fetched.bytes;
      else leftOut ??= { problem: fetched.kind === 'refused' ? fetched.problem : undefined };
    }
    return leftOut ?? { files: { ...files, opening } };
  };

  return {
    held(files) {
      const opening: OpeningBytes = {};
      let missing = false;
      for (const { kind, name, stat } of filesOf(files)) {
        const bytes = cache.get(keyOf(name, stat));
        if (bytes !== undefined) opening[kind] = bytes;
        else missing = true;
      }
      if (missing && !refusedAtVersion(files)) {
        wanted.delete(files.name);
        wanted.set(files.name, files);
        if (wanted.size > MAX_WANTED) wanted.delete(wanted.keys().next().value!);
        startLanes();
      }
      return opening;
    },
    prefetch(listed) {
      queue = listed.slice(0, MAX_PREFETCHED);
      next = 0;
      startLanes();
    },
    async check(shapefiles, signal) {
      const outcomes: Awaited<ReturnType<typeof checkOne>>[] = new Array(shapefiles.length);
      let at = 0;
      const checkLane = async () => {
        for (let i = at++; i < shapefiles.length; i = at++) outcomes[i] = await checkOne(shapefiles[i]);
      };
      const all = Promise.all(Array.from({ length: Math.min(PARALLEL_SHAPEFILES, shapefiles.length) }, checkLane));
      // A page whose request has ended stops asking; what is under way goes on for the cache.
      await abortable(all, signal).catch((error: unknown) => {
        at = shapefiles.length;
        throw error;
      });
      return {
        passed: outcomes.flatMap((outcome) => ('files' in outcome ? [outcome.files] : [])),
        refused: outcomes.flatMap((outcome) => ('problem' in outcome && outcome.problem !== undefined ? [outcome.problem] : [])),
      };
    },
    refused: () => [...refusals.values()].slice(0, MAX_REPORTED_REFUSED).map(({ problem }) => problem),
  };
}
