import { describe, expect, it } from 'vitest';
import { linesShape, pointsShape, shapeBytes } from '../../src/geometry/shape.ts';
import { createFeatureCache } from '../../src/shapefile/feature-cache.ts';
import { liveBytes } from '../support/heap.ts';

const line = (vertices: number) => linesShape(new Float64Array(2 * vertices), Uint32Array.of(0, vertices));

describe('the feature cache', () => {
  it('stays within its byte bound, dropping the least recently used', () => {
    const shape = line(1000);
    const probe = createFeatureCache(1 << 20)!;
    probe.set('v1', 10, shape);
    // Room for ten entries with ids of one or two digits.
    const bound = 10 * probe.bytes + probe.bytes / 2;
    const cache = createFeatureCache(bound)!;
    for (let fid = 0; fid < 50; fid++) {
      cache.set('v1', fid, shape);
      if (fid === 30) cache.get('v1', 0);
    }
    expect(cache.bytes).toBeLessThanOrEqual(bound);
    expect(cache.size).toBe(10);
    expect(cache.get('v1', 49)).toBe(shape);
    expect(cache.get('v1', 5)).toBeUndefined();
  });

  it('holds no more than its bound on the heap when filled with many small shapes (points: their headers outweigh their coordinates)', () => {
    const bound = 8 * 1024 * 1024;
    const cache = createFeatureCache(bound)!;
    const before = liveBytes();
    for (let fid = 0; fid < 100_000; fid++) cache.set('a-long-file-version-0123456789', fid, pointsShape(Float64Array.of(fid, fid)));
    expect(cache.bytes).toBeLessThanOrEqual(bound);
    expect(liveBytes() - before).toBeLessThanOrEqual(bound);
  });

  it('counts the bytes of the arrays a shape holds', () => {
    expect(shapeBytes(line(10_000)) - shapeBytes(line(10))).toBe(16 * 9_990);
  });

  it('keeps a null shape apart from a miss', () => {
    const cache = createFeatureCache(1 << 20)!;
    cache.set('v1', 3, null);
    expect(cache.get('v1', 3)).toBeNull();
    expect(cache.get('v1', 4)).toBeUndefined();
  });

  it('keys entries by file version', () => {
    const cache = createFeatureCache(1 << 20)!;
    cache.set('old', 0, pointsShape(Float64Array.of(1, 1)));
    expect(cache.get('new', 0)).toBeUndefined();
  });

  it('does not exist with a bound of 0', () => {
    expect(createFeatureCache(0)).toBeUndefined();
  });
});
