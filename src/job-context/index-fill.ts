/**
 * Fetches a busy file's whole .shx into the worker's block cache, in the background. A
 * feature's record can be asked for only once its .shx entry has come, so a request whose
 * entry is not cached costs two round trips, not one; random features of a large file keep
 * missing (a million features' .shx is 489 blocks of 16 KB), and each miss costs a client
 * a round trip. A version whose .shx has been missed in INDEX_MISSES blocks is being
 * read at random, not once: its .shx is then read whole, a chunk at a time, when it takes
 * at most a quarter of the cache (each worker its own: N workers read it N times). A single
 * cold feature still costs its one block (issue 22: under 64 KB cold); the fill is charged
 * to no request, and a request that wants a block of the chunk under way waits for that
 * chunk only.
 */
import { LRUCache } from 'lru-cache';
import type { DataSource } from '../plugin-contract/data-source-plugin.ts';
import type { FileVersion } from '../shapefile/byte-reader.ts';
import type { BlockCache } from '../sources/block-cache.ts';

/** Distinct blocks of a version's .shx missed before it is read whole: a list of features in one block is one miss, not many. */
const INDEX_MISSES = 4;
/** Versions whose misses are counted: the files in use, and more. */
const MAX_VERSIONS = 1024;
/** Each range request of a fill: a request whose block it holds waits for this much, no more (on a slow link too, within the read timeout). */
const FILL_CHUNK_BYTES = 256 * 1024;

export interface IndexFill {
  /** Tells a miss of `shx`'s entry at `position`. */
  missed(shx: FileVersion, position: number): void;
}

export function indexFill(source: DataSource, blocks: BlockCache, onProblem: (problem: string) => void): IndexFill {
  /**
   * By name and version: misses so far, or 'filled' once its fill started; a version is read
   * whole once at most (blocks the cache pushes out later are read again as asked for, so
   * that several large files cannot make the cache refill them in turn).
   */
  const misses = new LRUCache<string, Set<number> | 'filled'>({ max: MAX_VERSIONS });
  // Nobody's request: the source's own timeout and retry bound it.
  const never = new AbortController().signal;

  const fill = async ({ name, version, size }: FileVersion) => {
    for (let offset = 0; offset < size; offset += FILL_CHUNK_BYTES) {
      await blocks.read({ source, name, version, offset, length: Math.min(FILL_CHUNK_BYTES, size - offset), signal: never });
    }
  };

  return {
    missed(shx, position) {
      if (shx.size > blocks.maxBytes / 4) return;
      const key = `${shx.name}\n${shx.version}`;
      const seen = misses.get(key) ?? new Set<number>();
      if (seen === 'filled') return;
      seen.add(Math.floor(position / blocks.blockBytes));
      if (seen.size < INDEX_MISSES) {
        misses.set(key, seen);
        return;
      }
      misses.set(key, 'filled');
      // A failed fill (the source down, the file replaced) leaves the blocks to be read as requests ask for them.
      fill(shx).catch((error: unknown) => onProblem(`Reading ${shx.name} whole in the background failed: ${(error as Error).message}`));
    },
  };
}
