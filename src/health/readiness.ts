/**
 * Whether this instance can serve: its data folder opens (a remote data source lists its
 * catalog) and a drawing worker serves jobs.
 * The basemaps are reported beside (no map type's latest map failed within the last
 * minute) but do not make the instance unready: a tile server that is down is down for
 * every instance alike, and taking them all out of the load balancer would stop the images
 * and /ogc too; a client could even cause it with a map the provider refuses. Cheap enough
 * to be asked every second: one opendir with a timeout, and what the pool and the basemap
 * registry already know; no tile server is probed.
 */
import { opendir } from 'node:fs/promises';
import type { BasemapRegistry } from '../basemap/registry.ts';
import type { JobPool } from '../jobs/job-pool.ts';
import type { SharedStoreHealth } from '../limits/limit-store.ts';
import { ServiceError } from '../errors.ts';
import type { ShapefileCatalog } from '../shapefile/shapefile-catalog.ts';
import { deadlineSignal } from '../cancellation/deadline-signal.ts';
import type { CatalogHealth } from '../sources/source-catalog.ts';

/**
 * Each check's outcome: 'ok', or what is wrong, in words (no path, no key: anyone may ask).
 * A remote data source is named by its describe(), which names no credentials.
 */
export interface Readiness {
  ready: boolean;
  /** The remote data source the data is read from; absent for a local folder. */
  source?: string;
  checks: { dataFolder: string; drawingWorkers: string; basemaps: string };
  /**
   * What a ready instance serves less well, in words (a remote source's files left out of its
   * catalog, reads it refuses, a listing that failed while the one before is served): the
   * instance stays in its load balancer (every instance reads the same source), but says so.
   */
  degraded: string[];
}

export interface ReadinessSources {
  /** The data folder's resolved path. */
  dataDir: string;
  /** The remote data source, in place of the folder: its catalog must list, and says what it left out. */
  source?: { describe(): string; catalog: ShapefileCatalog; health(): CatalogHealth };
  drawing: Pick<JobPool, 'workers' | 'stats'>;
  basemaps: Pick<BasemapRegistry, 'failingTypes'>;
  /**
   * The store of the keys' limits shared by instances (limits.store): while it does not answer
   * the instance serves on its own counts (or refuses keys' requests), and says so here; it
   * stays ready, as every instance shares the same store.
   */
  limitStore?: Pick<SharedStoreHealth, 'described' | 'up' | 'failure'>;
}

const OK = 'ok';
/** A hung network mount must not hang the probe. */
const DATA_FOLDER_TIMEOUT_MS = 1000;
/** A map type that failed longer ago than this counts as recovered: no traffic may come to prove it. */
const BASEMAP_WINDOW_MS = 60_000;

export async function checkReadiness({ dataDir, source, drawing, basemaps, limitStore }: ReadinessSources): Promise<Readiness> {
  const { workersReady } = drawing.stats;
  const failing = basemaps.failingTypes(BASEMAP_WINDOW_MS);
  const checks = {
    dataFolder: source ? await sourceCheck(source.describe(), source.catalog) : await dataFolderCheck(dataDir),
    // One worker serves; one that died is replaced when a job needs it, so fewer than all is no reason to turn traffic away.
    drawingWorkers: workersReady > 0 ? OK : `0 of ${drawing.workers} workers ready`,
    basemaps: failing.length === 0 ? OK : `the latest ${failing.join(', ')} map failed within the last minute`,
  };
  const ready = checks.dataFolder === OK && checks.drawingWorkers === OK;
  const degraded = [
    ...(source ? degradations(source.health()) : []),
    ...(limitStore && !limitStore.up() ? [limitStoreDown(limitStore)] : []),
  ];
  return source ? { ready, source: source.describe(), checks, degraded } : { ready, checks, degraded };
}

function limitStoreDown({ described, failure }: Pick<SharedStoreHealth, 'described' | 'failure'>): string {
  const meanwhile = failure === 'open' ? "this instance counts the keys' limits on its own" : "this instance refuses the keys' requests (limits.storeFailure \"closed\")";
  return `the limits store (${described}) does not answer: ${meanwhile}`;
}

function degradations({ listingProblem, leftOut, readProblem }: CatalogHealth): string[] {
  return [
    ...(listingProblem ? [`the latest listing failed, the one before is served: ${listingProblem}`] : []),
    ...(readProblem ? [`reads fail: ${readProblem}`] : []),
    // A name no URL can read is left out of the catalog, a file the source refuses out of /ogc/collections: each entry says which and why.
    ...leftOut.map((entry) => `left out: ${entry}`),
  ];
}

/**
 * The folder's open (or the source's listing) under way, by path: probes that come while one is still open share it.
 * On a hung mount each open holds one of libuv's four threads until it returns, and /ready
 * needs no key: a probe each second would otherwise stall every file read of the service.
 */
const opening = new Map<string, Promise<string>>();

/** The folder opens (it exists, is a folder, may be read) within DATA_FOLDER_TIMEOUT_MS. */
function dataFolderCheck(path: string): Promise<string> {
  return sharedCheck(
    path,
    () =>
      opendir(path).then(
        (folder) => folder.close().then(() => OK),
        (error: NodeJS.ErrnoException) => `cannot be opened (${error.code ?? 'error'})`,
      ),
    DATA_FOLDER_TIMEOUT_MS,
    `did not open within ${DATA_FOLDER_TIMEOUT_MS} ms`,
  );
}

/** A remote source must answer a listing within SOURCE_TIMEOUT_MS: a round trip or two, where a folder needs none. */
const SOURCE_TIMEOUT_MS = 5000;
/**
 * The catalog lists within SOURCE_TIMEOUT_MS: the listing it serves from while that is young
 * (source-catalog.ts lists again when it is due, in the background), so that a probe every
 * second costs a store no listing of its own; what is wrong is the source's own reason, which
 * names no secret (a ServiceError's message).
 */
function sourceCheck(description: string, catalog: ShapefileCatalog): Promise<string> {
  const list = () => {
    const deadline = deadlineSignal(SOURCE_TIMEOUT_MS);
    return catalog
      .names(deadline.signal)
      .then(
        () => OK,
        (error: unknown) => (error instanceof ServiceError ? `cannot be listed: ${error.message}` : 'cannot be listed'),
      )
      .finally(deadline.clear);
  };
  return sharedCheck(description, list, SOURCE_TIMEOUT_MS, `did not list within ${SOURCE_TIMEOUT_MS} ms`);
}

/** The check under way for `key`, shared with the probes that come meanwhile; `late` once it takes `timeoutMs`. */
async function sharedCheck(key: string, check: () => Promise<string>, timeoutMs: number, late: string): Promise<string> {
  let opened = opening.get(key);
  if (!opened) {
    opened = check().finally(() => opening.delete(key));
    opening.set(key, opened);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tooLate = new Promise<string>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, late);
  });
  try {
    return await Promise.race([opened, tooLate]);
  } finally {
    clearTimeout(timer);
  }
}
