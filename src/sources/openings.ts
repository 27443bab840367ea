/**
 * The opening bytes of each shapefile version a remote source serves (headers, .prj, .cpg:
 * shapefile/opening-bytes.ts), fetched on the main thread once per version and handed to
 * every job that reads it: the drawing workers then open a version without a round trip of
 * their own, and a worker's first job costs what any other's does. Kept in a cache bounded
 * in bytes; a fetch under way is shared by every request that asks meanwhile.
 *
 * After each listing the shapefiles listed are fetched ahead, a few at a time, while they fit
 * in half the cache: a first request for a feature then costs the source its .shx entry, its
 * record and its .dbf row (issue 22: at most three range requests cold), not its headers too.
 *
 * The bytes are a hint, never a fault: a fetch that fails (the source down, the file changed)
 * leaves that file out, and the worker reads it itself and meets the fault there, as a
 * request's own read, with the request's signal and its error.
 */
import type { DataSource, SourceStat } from '../plugin-contract/data-source-plugin.ts';
import { FILE_KINDS, type FileKind, type ShapefileFiles } from '../shapefile/file-set.ts';
import { openingBytes, trimmedOpening } from '../shapefile/opening-bytes.ts';
import { arrayBytes, byteBoundedCache } from '../structures/byte-bounded-cache.ts';

export type OpeningBytes = NonNullable<ShapefileFiles['opening']>;

export interface Openings {
  /** The opening bytes of the files of `files` at their versions; a file whose fetch failed is left out. */
  of(files: ShapefileFiles): Promise<OpeningBytes>;
  /** Fetches ahead those of `listed` (with their versions), while they fit in half the cache. */
  prefetch(listed: readonly ShapefileFiles[]): void;
}

/** Some thousands of shapefiles of a few fields each. */
export const OPENINGS_CACHE_BYTES = 8 << 20;
/** Fetches a prefetch has under way at once: a listing of thousands must not flood the source. */
const PREFETCH_PARALLEL = 4;

export function createOpenings(source: DataSource, maxBytes = OPENINGS_CACHE_BYTES): Openings {
  const cache = byteBoundedCache<Uint8Array>(maxBytes, arrayBytes);
  const inFlight = new Map<string, Promise<Uint8Array | undefined>>();
  // Shared by every request that asks: no request's signal may stop it; the source's own timeout and retry bound it.
  const never = new AbortController().signal;

  const bytesOf = (kind: FileKind, name: string, stat: SourceStat): Promise<Uint8Array | undefined> => {
    const key = `${name}\n${stat.version}`;
    const held = cache.get(key);
    if (held !== undefined) return Promise.resolve(held);
    let fetching = inFlight.get(key);
    if (fetching === undefined) {
      fetching = source
        .read(name, 0, openingBytes(kind, stat.size), never, stat.version)
        .then((bytes) => {
          const kept = trimmedOpening(kind, bytes);
          cache.set(key, kept);
          return kept;
        })
        .catch(() => undefined)
        .finally(() => inFlight.delete(key));
      inFlight.set(key, fetching);
    }
    return fetching;
  };

  const of = async ({ paths, versions }: ShapefileFiles): Promise<OpeningBytes> => {
    const kinds = FILE_KINDS.filter((kind) => paths[kind] !== undefined && versions?.[kind] !== undefined);
    const found = await Promise.all(kinds.map((kind) => bytesOf(kind, paths[kind]!, versions![kind]!)));
    const opening: OpeningBytes = {};
    kinds.forEach((kind, i) => {
      if (found[i] !== undefined) opening[kind] = found[i];
    });
    return opening;
  };

  return {
    of,
    prefetch(listed) {
      let next = 0;
      const lane = async () => {
        while (next < listed.length && cache.bytes < maxBytes / 2) await of(listed[next++]);
      };
      for (let lanes = 0; lanes < PREFETCH_PARALLEL; lanes++) void lane();
    },
  };
}
