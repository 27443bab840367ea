/**
 * The shapefiles of the data source a drawing worker was started with: the local folder, read
 * by positional reads as ever, or a remote source made on this thread from its setting (a
 * source holds connections and clients that cannot cross threads), with this worker's block
 * cache, which its jobs share.
 */
import { createOpenShapefiles } from '../shapefile/open-shapefiles.ts';
import { createBlockCache } from '../sources/block-cache.ts';
import { openDataSource } from '../sources/registry.ts';
import type { DrawingWorkerOptions } from './context.ts';
import { createRemoteShapefiles } from './remote-shapefiles.ts';
import { localShapefiles, type WorkerShapefiles } from './worker-shapefiles.ts';

/**
 * A feature's .shx entry and .dbf row come in blocks this large: 2,048 entries, some hundreds
 * of rows, so that features near one another cost their record only, while a cold feature's
 * two blocks stay well under issue 22's 64 KB (64 KiB blocks made it some 200 KB).
 */
const REMOTE_BLOCK_BYTES = 16 * 1024;

export async function openWorkerShapefiles(options: DrawingWorkerOptions, onProblem: (problem: string) => void): Promise<WorkerShapefiles> {
  const { remote } = options;
  if (remote === undefined) {
    return localShapefiles(
      createOpenShapefiles({ realRoot: options.realDataDir, cacheBytes: options.cacheBytes, maxOpen: options.maxOpenShapefiles, onProblem }),
    );
  }
  // A worker has no logger of its own: what a plugin logs becomes notes the pool logs.
  const log = (fields: object, message?: string) => onProblem(`Data source: ${message ?? ''} ${JSON.stringify(fields)}`.trim());
  const logger = { debug: () => {}, info: () => {}, warn: log, error: log };
  return createRemoteShapefiles({
    source: await openDataSource(remote.setting, logger),
    blocks: createBlockCache({ maxBytes: remote.blockCacheBytes, blockBytes: REMOTE_BLOCK_BYTES }),
    cacheBytes: options.cacheBytes,
    maxOpen: options.maxOpenShapefiles,
    maxSourceBytes: remote.maxSourceBytes,
    onProblem,
  });
}
