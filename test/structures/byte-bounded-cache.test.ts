/**
 * The one way the service's caches count what they hold (structures/byte-bounded-cache.ts): what
 * it counts is at least what the heap really keeps for the entries, keys included, so that
 * a cache's bound is a bound on memory; and filled past its bound with distinct keys it
 * stays within it.
 */
import { describe, expect, it } from 'vitest';
import { arrayBytes, byteBoundedCache, OBJECT_BYTES, stringBytes } from '../../src/structures/byte-bounded-cache.ts';
import { liveBytes, retainedBytes } from '../support/heap.ts';

/** Entries of every shape the service keeps: short and long keys (one- and two-byte text), objects, typed arrays. */
const kinds = [
  { name: 'short keys, small records', key: (i: number) => `v1#${i}`, value: () => ({ shape: null }), bytes: () => OBJECT_BYTES },
  {
    name: 'long two-byte keys, byte arrays',
    key: (i: number) => `€${i}${'x'.repeat(2000)}`,
    value: () => ({ bytes: new Uint8Array(300) }),
    bytes: (value: { bytes: Uint8Array }) => OBJECT_BYTES + arrayBytes(value.bytes),
  },
  {
    name: 'medium keys, records of three small arrays',
    key: (i: number) => `${'v'.repeat(40)}#${i}`,
    value: () => ({ xy: new Float64Array(2), parts: new Uint32Array(0), polygons: new Uint32Array(0) }),
    bytes: (value: { xy: Float64Array; parts: Uint32Array; polygons: Uint32Array }) =>
      OBJECT_BYTES + arrayBytes(value.xy) + arrayBytes(value.parts) + arrayBytes(value.polygons),
  },
] as const;

describe('a byte-bounded cache', () => {
  it.each(kinds)('counts at least what the heap keeps for its entries ($name)', ({ key, value, bytes }) => {
    const entries = 20_000;
    const cache = byteBoundedCache<object>(Number.MAX_SAFE_INTEGER, bytes as (value: object) => number);
    const kept = retainedBytes(() => {
      for (let i = 0; i < entries; i++) cache.set(key(i), value());
      return cache;
    });
    expect(cache.size).toBe(entries);
    expect(cache.bytes).toBeGreaterThanOrEqual(kept);
  });

  it.each(kinds)('stays within its bound when filled with ten times as much ($name)', ({ key, value, bytes }) => {
    const maxBytes = 4 * 1024 * 1024;
    const cache = byteBoundedCache<object>(maxBytes, bytes as (value: object) => number);
    const before = liveBytes();
    let offered = 0;
    for (let i = 0; offered < 10 * maxBytes; i++) {
      const entry = value();
      cache.set(key(i), entry);
      offered += stringBytes(key(i)) + (bytes as (value: object) => number)(entry);
    }
    expect(cache.bytes).toBeLessThanOrEqual(maxBytes);
    expect(liveBytes() - before).toBeLessThanOrEqual(maxBytes);
  });

  it('counts a key two bytes a character, and a view the whole buffer it keeps alive', () => {
    expect(stringBytes('a'.repeat(1000)) - stringBytes('')).toBe(2000);
    const buffer = new Uint8Array(1 << 20);
    expect(arrayBytes(buffer.subarray(0, 10))).toBe(arrayBytes(buffer));
  });

  it('keeps the most recently used, drops the least, and keeps nothing larger than its bound', () => {
    // Room for two of these entries, not three.
    const cache = byteBoundedCache<Uint8Array>(50_000, arrayBytes);
    cache.set('first', new Uint8Array(20_000));
    cache.set('second', new Uint8Array(20_000));
    cache.get('first');
    cache.set('third', new Uint8Array(20_000));
    expect([cache.get('first'), cache.get('second'), cache.get('third')].map(Boolean)).toEqual([true, false, true]);
    cache.set('huge', new Uint8Array(100_000));
    expect(cache.get('huge')).toBeUndefined();
  });

  it('keeps nothing with a bound of 0', () => {
    const cache = byteBoundedCache<object>(0, () => 1);
    cache.set('a', {});
    expect([cache.get('a'), cache.size, cache.bytes]).toEqual([undefined, 0, 0]);
  });
});
