/**
 * Decoded geometries, least recently used first out, bounded in (estimated) bytes. Keys
 * carry the file version, so a file replaced on disk is never answered from the cache.
 */
import { LRUCache } from 'lru-cache';
import type { Geometry } from '../geometry/types.ts';

export interface FeatureCache {
  get(version: string, fid: number): Geometry | null | undefined;
  set(version: string, fid: number, geometry: Geometry | null): void;
  /** Estimated bytes held. */
  readonly bytes: number;
  readonly size: number;
}

/** V8 keeps a position as a small array (header plus two doubles), and each part as an array of them. */
const BYTES_PER_POSITION = 64;
const BYTES_PER_PART = 48;
const BYTES_PER_ENTRY = 160;

/** Undefined when `maxBytes` is 0: caching is off. */
export function createFeatureCache(maxBytes: number): FeatureCache | undefined {
  if (maxBytes <= 0) return undefined;
  const cache = new LRUCache<string, { geometry: Geometry | null }>({
    maxSize: maxBytes,
    sizeCalculation: (entry) => estimateBytes(entry.geometry),
  });
  return {
    get: (version, fid) => cache.get(`${version}#${fid}`)?.geometry,
    set: (version, fid, geometry) => {
      cache.set(`${version}#${fid}`, { geometry });
    },
    get bytes() {
      return cache.calculatedSize;
    },
    get size() {
      return cache.size;
    },
  };
}

export function estimateBytes(geometry: Geometry | null): number {
  if (geometry === null) return BYTES_PER_ENTRY;
  const sized = (positions: number, arrays: number) => BYTES_PER_ENTRY + positions * BYTES_PER_POSITION + arrays * BYTES_PER_PART;
  switch (geometry.type) {
    case 'Point':
      return sized(1, 0);
    case 'MultiPoint':
    case 'LineString':
      return sized(geometry.coordinates.length, 1);
    case 'MultiLineString':
    case 'Polygon':
      return sized(geometry.coordinates.reduce((sum, ring) => sum + ring.length, 0), geometry.coordinates.length + 1);
    case 'MultiPolygon': {
      let positions = 0;
      let arrays = 1;
      for (const polygon of geometry.coordinates) {
        arrays += polygon.length + 1;
        for (const ring of polygon) positions += ring.length;
      }
      return sized(positions, arrays);
    }
  }
}
