/**
 * Decoded shapes, least recently used first out, bounded by the bytes they really hold
 * (keys, shapes and bookkeeping: structures/byte-bounded-cache.ts). Keys carry the file version,
 * so a file replaced on disk is never answered from the cache. Each worker thread keeps
 * its own.
 */
import { shapeBytes, type Shape } from '../geometry/shape.ts';
import { byteBoundedCache, OBJECT_BYTES } from '../structures/byte-bounded-cache.ts';

export interface FeatureCache {
  get(version: string, fid: number): Shape | null | undefined;
  set(version: string, fid: number, shape: Shape | null): void;
  /** Bytes held. */
  readonly bytes: number;
  readonly size: number;
  /** Lookups so far that found an entry, and that did not: what the service's metrics report. */
  readonly hits: number;
  readonly misses: number;
}

/** Undefined when `maxBytes` is 0: caching is off. */
export function createFeatureCache(maxBytes: number): FeatureCache | undefined {
  if (maxBytes <= 0) return undefined;
  // Wrapped, so that a null shape (a record without geometry) is kept apart from a miss.
  const cache = byteBoundedCache<{ shape: Shape | null }>(maxBytes, ({ shape }) => OBJECT_BYTES + (shape ? shapeBytes(shape) : 0));
  let hits = 0;
  let misses = 0;
  return {
    get: (version, fid) => {
      const entry = cache.get(`${version}#${fid}`);
      if (entry) hits++;
      else misses++;
      return entry?.shape;
    },
    set: (version, fid, shape) => {
      cache.set(`${version}#${fid}`, { shape });
    },
    get bytes() {
      return cache.bytes;
    },
    get size() {
      return cache.size;
    },
    get hits() {
      return hits;
    },
    get misses() {
      return misses;
    },
  };
}
