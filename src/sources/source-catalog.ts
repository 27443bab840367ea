/**
 * The catalog of a remote data source, as the main thread serves it (the same ShapefileCatalog a
 * local folder gives, data-folder.ts): the source's listing grouped into shapefiles, each
 * file with the size and version the listing gives it. The listing is the one request that
 * versions every file (issue 29: a HEAD per file per `fileCheckMs` took a bucket of 3,000
 * shapefiles 9,000 requests a catalog), so it is what is asked again: in the background once
 * it is older than `fileCheckMs` (or ten times what it took, for a bucket whose listing costs
 * many pages), while requests go on with it; waited for past twice that, when there is none
 * yet, or (at most once a second) for a name it lacks. A listing that fails leaves the one
 * before in use up to `catalogTtlMs`.
 *
 * Nothing here waits without a deadline (docs/decisions.md, "At size"): a listing runs within the
 * request budget (`limits.requestTimeoutMs`) whatever the source does, and each request waits
 * for it with its own signal, so no request outlives its budget and its admission slot is
 * given back. A listed name that cannot be served (no plain file name, a broken surrogate)
 * is left out of the catalog and named in its health, not made the whole listing's failure.
 *
 * The versions are what ETags are made of and what the drawing workers read (pinned: a file
 * replaced since is told by its reads, job-context/remote-shapefiles.ts). Each version's
 * opening bytes are fetched once for every worker, ahead after each listing (openings.ts).
 */
import { abortable } from '../cancellation/abortable.ts';
import { deadlineSignal } from '../cancellation/deadline-signal.ts';
import { OverloadedError } from '../errors.ts';
import type { DataSource, SourceEntry, SourceStat } from '../plugin-contract/data-source-plugin.ts';
import { groupFileSets } from '../shapefile/data-folder.ts';
import type { ShapefileCatalog } from '../shapefile/shapefile-catalog.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';
import { FILE_KINDS, type FileKind } from '../shapefile/file-kinds.ts';
import { isPlainName } from './json-catalog.ts';
import { createOpenings, type Openings } from './openings.ts';
import { asServiceError, SourceFailedError } from './source-errors.ts';

export interface SourceCatalogSettings {
  /** A listing older than this is waited for. */
  catalogTtlMs: number;
  /** A listing older than this is made again in the background. */
  fileCheckMs: number;
  /** What one listing may take, whatever the source does: a request's own budget. */
  requestTimeoutMs: number;
}

/** What the catalog knows is wrong with its source, for /ready (health/readiness.ts). */
export interface CatalogHealth {
  /** The latest listing's failure, when it failed; undefined when it listed. */
  listingProblem: string | undefined;
  /** Listed names left out of the catalog, and files the source refused to read, left out of /ogc/collections: each and why (the first few). */
  leftOut: string[];
  /** Why the latest read of the opening bytes ahead failed (a source that ignores Range), until one succeeds again. */
  readProblem: string | undefined;
}

export interface SourceCatalog extends ShapefileCatalog {
  health(): CatalogHealth;
  /** A page's shapefiles checked before they are described: their opening bytes read, those the source refuses left out (openings.ts). */
  check: Openings['check'];
  /**
   * The listing served is out of date (a request found a listed file changed or gone): the
   * next request waits for a new one (at most one a second, as for a name the listing lacks).
   */
  listAgain(): void;
}

/** A listing stopped at its deadline (a budget from its start), whatever its source did. */
class ListingDeadlinePassed extends SourceFailedError {}

/** A name the listing lacks sends the source a new listing at most this often: a listing costs it more than a read. */
const RELIST_INTERVAL_MS = 1000;
/** A listing that took a while is made again at most every this many times what it took. */
const LISTING_COST_FACTOR = 10;
/** Names of files left out that health() reports: enough to find them, bounded whatever the listing holds. */
const MAX_REPORTED = 20;

interface Listing {
  sets: Map<string, ShapefileFiles>;
  /** The shapefiles' names, sorted once per listing: a page of /ogc/collections asks for them each time (sorting 100,000 names costs the event loop ~50 ms). */
  names: readonly string[];
  /** When it started (performance.now()), and how long it took. */
  startedAt: number;
  tookMs: number;
}

export function createSourceCatalog(source: DataSource, { catalogTtlMs, fileCheckMs, requestTimeoutMs }: SourceCatalogSettings): SourceCatalog {
  const description = source.describe();
  let readProblem: string | undefined;
  const openings = createOpenings(source, (problem) => (readProblem = problem));
  let latest: Listing | undefined;
  let listing: Promise<Listing> | undefined;
  let lastTried = -Infinity;
  let lastFailure: unknown;
  let listingProblem: string | undefined;
  /** The latest listing's failure was the source's refusal (a bucket deleted, a base URL gone): nothing it listed before is served. */
  let listingRefused = false;
  /** Set by listAgain(): the latest listing is not served as fresh, however young. */
  let outdated = false;
  let leftOut: string[] = [];

  /**
   * A new listing, shared by every request that asks while it runs, within a request's budget
   * (limits.requestTimeoutMs) from its start: it does not outlive the budget of the request
   * that began it, the first of those waiting to end. At the deadline its source's requests
   * are stopped and the listing fails, whether or not the source lets go (a plugin that
   * ignores the signal included), by a timer held strongly (cancellation/deadline-signal.ts).
   */
  const relist = (): Promise<Listing> =>
    (listing ??= (async () => {
      const startedAt = performance.now();
      lastTried = startedAt;
      const deadline = deadlineSignal(requestTimeoutMs);
      try {
        const entries = await abortable(source.list(deadline.signal), deadline.signal);
        const { served, refused } = servedEntries(entries);
        const listed = new Map(served.map((entry) => [entry.name, entry]));
        const sets = new Map(
          [...groupFileSets('', served.map((entry) => entry.name))].flatMap(([key, files]) => {
            const versioned = withListedVersions(files, listed);
            return versioned.versions?.shp ? [[key, versioned] as const] : [];
          }),
        );
        const names = [...sets.values()].map((entry) => entry.name).sort((a, b) => a.localeCompare(b));
        latest = { sets, names, startedAt, tookMs: performance.now() - startedAt };
        listingProblem = undefined;
        listingRefused = false;
        outdated = false;
        leftOut = refused;
        openings.prefetch([...sets.values()]);
        return latest;
      } catch (error) {
        const failure = deadline.timedOut()
          ? new ListingDeadlinePassed(`Data source ${description} is unavailable: it did not list its catalog within ${requestTimeoutMs} ms.`)
          : asServiceError(error, description, deadline.signal);
        listingProblem = failure instanceof Error ? failure.message : `Data source ${description} did not list its catalog.`;
        // A refusal (no Retry-After: 404 to the listing, access denied) is not a passing fault.
        listingRefused = failure instanceof SourceFailedError && failure.retryAfterSeconds === undefined;
        lastFailure = failure;
        throw failure;
      } finally {
        deadline.clear();
      }
    })().finally(() => {
      listing = undefined;
    }));

  /**
   * The listing a request may use: the latest while it is younger than its refresh age (and,
   * up to twice that, while a newer one is made in the background), else a new one, waited for
   * with the request's signal. A new one that fails leaves the latest in use up to
   * `catalogTtlMs`: a source that falls over for a moment does not fail every request.
   */
  const usable = async (signal: AbortSignal | undefined): Promise<Listing> => {
    const age = latest ? performance.now() - latest.startedAt : Infinity;
    // fileCheckMs 0 asks for a listing a request; otherwise a costly listing is not asked for more often than ten times what it took.
    const refreshAge = fileCheckMs === 0 ? 0 : Math.max(fileCheckMs, LISTING_COST_FACTOR * (latest?.tookMs ?? 0));
    const fallBack = (error: unknown): Listing => {
      if (latest && !listingRefused && age < catalogTtlMs && !signal?.aborted) return latest;
      throw error;
    };
    const served = !outdated && !listingRefused ? latest : undefined;
    if (served && age < refreshAge) return served;
    if (served && age < 2 * refreshAge) {
      void relist().catch(() => undefined);
      return served;
    }
    // A listing that failed a moment ago is not asked for again by every request: its failure stands for a second.
    if (listing === undefined && listingProblem !== undefined && performance.now() - lastTried < RELIST_INTERVAL_MS) return fallBack(lastFailure);
    try {
      return await waitForListing(signal);
    } catch (error) {
      return fallBack(error);
    }
  };

  /**
   * A new listing, waited for with `signal`; a request whose time runs out meanwhile is told
   * the source did not list in time. A listing that another request began, stopped at that
   * request's budget, is no answer for one with time of its own: it waits, once, for a new
   * listing (whose deadline is past its own budget).
   */
  const waitForListing = (signal: AbortSignal | undefined, again = true): Promise<Listing> =>
    abortable(relist(), signal).catch((error: unknown) => {
      if (again && error instanceof ListingDeadlinePassed && signal && !signal.aborted) return waitForListing(signal, false);
      if (signal?.aborted && error === signal.reason && error instanceof OverloadedError) {
        throw new SourceFailedError(`Data source ${description} is unavailable: it did not list its catalog within the request's time (${error.message})`);
      }
      throw error;
    });

  return {
    async find(name, signal) {
      if (typeof name !== 'string' || name === '') return undefined;
      const key = name.toLowerCase();
      let current = await usable(signal);
      if (!current.sets.has(key) && performance.now() - lastTried >= RELIST_INTERVAL_MS) current = await waitForListing(signal);
      const files = current.sets.get(key);
      return files && { ...files, opening: openings.held(files) };
    },
    async names(signal) {
      return (await usable(signal)).names;
    },
    health: () => ({ listingProblem, leftOut: [...leftOut, ...openings.refused()], readProblem }),
    check: (shapefiles, signal) => openings.check(shapefiles, signal),
    listAgain: () => void (outdated = true),
  };
}

/**
 * The entries a catalog can serve, and the names of the first few it cannot: a name that is
 * not a plain file name, or not well-formed text (a lone surrogate has no URL to read it at).
 */
function servedEntries(entries: readonly SourceEntry[]): { served: SourceEntry[]; refused: string[] } {
  const served: SourceEntry[] = [];
  const refused: string[] = [];
  for (const entry of entries) {
    if (typeof entry.name === 'string' && isPlainName(entry.name)) served.push(entry);
    // JSON escapes what no log line or page should hold as it is (a lone surrogate, a line break).
    else if (refused.length < MAX_REPORTED) refused.push(`${JSON.stringify(String(entry.name)).slice(0, 80)}: not a plain, well-formed file name`);
  }
  return { served, refused };
}

/** The shapefile with each file's size and version as the listing gave them. */
function withListedVersions(files: ShapefileFiles, listed: ReadonlyMap<string, SourceEntry>): ShapefileFiles {
  const versions: Partial<Record<FileKind, SourceStat>> = {};
  const paths: ShapefileFiles['paths'] = { shp: files.paths.shp };
  for (const kind of FILE_KINDS) {
    const entry = files.paths[kind] === undefined ? undefined : listed.get(files.paths[kind]);
    if (entry === undefined) continue;
    const { name, ...stat } = entry;
    paths[kind] = name;
    versions[kind] = stat;
  }
  return { name: files.name, paths, versions };
}
