import { describe, expect, it } from 'vitest';
import type { Geometry } from '../../src/geometry/types.ts';
import { createFeatureCache, estimateBytes } from '../../src/shapefile/feature-cache.ts';

const ring = (vertices: number) => Array.from({ length: vertices }, (_, i) => [i, i * 2]);

describe('the feature cache', () => {
  it('stays within its byte bound, dropping the least recently used', () => {
    const polygon: Geometry = { type: 'Polygon', coordinates: [ring(1000)] };
    const bytes = estimateBytes(polygon);
    const cache = createFeatureCache(10 * bytes)!;
    for (let fid = 0; fid < 50; fid++) {
      cache.set('v1', fid, polygon);
      if (fid === 30) cache.get('v1', 0);
    }
    expect(cache.bytes).toBeLessThanOrEqual(10 * bytes);
    expect(cache.size).toBe(10);
    expect(cache.get('v1', 49)).toBe(polygon);
    expect(cache.get('v1', 5)).toBeUndefined();
  });

  it('estimates bytes from the vertex count', () => {
    const small = estimateBytes({ type: 'LineString', coordinates: ring(10) });
    const large = estimateBytes({ type: 'LineString', coordinates: ring(10_000) });
    expect(large).toBeGreaterThan(500 * small);
    expect(estimateBytes({ type: 'MultiPolygon', coordinates: [[ring(100)], [ring(100)]] })).toBeGreaterThan(
      estimateBytes({ type: 'Polygon', coordinates: [ring(100)] }),
    );
  });

  it('keeps a null shape apart from a miss', () => {
    const cache = createFeatureCache(1 << 20)!;
    cache.set('v1', 3, null);
    expect(cache.get('v1', 3)).toBeNull();
    expect(cache.get('v1', 4)).toBeUndefined();
  });

  it('keys entries by file version', () => {
    const cache = createFeatureCache(1 << 20)!;
    cache.set('old', 0, { type: 'Point', coordinates: [1, 1] });
    expect(cache.get('new', 0)).toBeUndefined();
  });

  it('does not exist with a bound of 0', () => {
    expect(createFeatureCache(0)).toBeUndefined();
  });
});
