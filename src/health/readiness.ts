/**
 * Whether this instance can serve: its data folder opens and a drawing worker serves jobs.
 * The basemaps are reported beside (no map type's latest map failed within the last
 * minute) but do not make the instance unready: a tile server that is down is down for
 * every instance alike, and taking them all out of the load balancer would stop the images
 * and /ogc too; a client could even cause it with a map the provider refuses. Cheap enough
 * to be asked every second: one opendir with a timeout, and what the pool and the basemap
 * registry already know; no tile server is probed.
 */
import { opendir } from 'node:fs/promises';
import type { BasemapRegistry } from '../basemap/registry.ts';
import type { DrawingPool } from '../jobs/drawing-pool.ts';

/** Each check's outcome: 'ok', or what is wrong, in words (no path, no key: anyone may ask). */
export interface Readiness {
  ready: boolean;
  checks: { dataFolder: string; drawingWorkers: string; basemaps: string };
}

export interface ReadinessSources {
  /** The data folder's resolved path. */
  dataDir: string;
  drawing: Pick<DrawingPool, 'workers' | 'stats'>;
  basemaps: Pick<BasemapRegistry, 'failingTypes'>;
}

const OK = 'ok';
/** A hung network mount must not hang the probe. */
const DATA_FOLDER_TIMEOUT_MS = 1000;
/** A map type that failed longer ago than this counts as recovered: no traffic may come to prove it. */
const BASEMAP_WINDOW_MS = 60_000;

export async function checkReadiness({ dataDir, drawing, basemaps }: ReadinessSources): Promise<Readiness> {
  const { workersReady } = drawing.stats;
  const failing = basemaps.failingTypes(BASEMAP_WINDOW_MS);
  const checks = {
    dataFolder: await dataFolderCheck(dataDir),
    // One worker serves; one that died is replaced when a job needs it, so fewer than all is no reason to turn traffic away.
    drawingWorkers: workersReady > 0 ? OK : `0 of ${drawing.workers} workers ready`,
    basemaps: failing.length === 0 ? OK : `the latest ${failing.join(', ')} map failed within the last minute`,
  };
  return { ready: checks.dataFolder === OK && checks.drawingWorkers === OK, checks };
}

/**
 * The folder's open under way, by path: probes that come while one is still open share it.
 * On a hung mount each open holds one of libuv's four threads until it returns, and /ready
 * needs no key: a probe each second would otherwise stall every file read of the service.
 */
const opening = new Map<string, Promise<string>>();

/** The folder opens (it exists, is a folder, may be read) within DATA_FOLDER_TIMEOUT_MS. */
async function dataFolderCheck(path: string): Promise<string> {
  let opened = opening.get(path);
  if (!opened) {
    opened = opendir(path)
      .then(
        (folder) => folder.close().then(() => OK),
        (error: NodeJS.ErrnoException) => `cannot be opened (${error.code ?? 'error'})`,
      )
      .finally(() => opening.delete(path));
    opening.set(path, opened);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(resolve, DATA_FOLDER_TIMEOUT_MS, `did not open within ${DATA_FOLDER_TIMEOUT_MS} ms`);
  });
  try {
    return await Promise.race([opened, late]);
  } finally {
    clearTimeout(timer);
  }
}
