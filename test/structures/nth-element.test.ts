/**
 * The selection against a sort of the same keys, on keys in no particular order and on
 * orders a pivot rule can stumble on (sorted, organ pipes, the median-of-three killer, the
 * extremes gathered where a sample is taken, many equal keys), counting its steps through
 * the StepPacer: linear in the keys whatever their order, never by time.
 */
import { describe, expect, it } from 'vitest';
import { placeNth, placeNthInPlace } from '../../src/structures/nth-element.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { CountingPacer } from '../support/counting-pacer.ts';

const COUNT = 1 << 15;
/** Steps per key that no order may exceed: the worst family here takes some 20. */
const STEPS_PER_KEY = 40;

const next = seededRandom(3);
const ORDERS: [string, (i: number) => number][] = [
  ['in no particular order', () => next()],
  ['sorted', (i) => i],
  ['reversed', (i) => COUNT - i],
  ['organ pipes', (i) => (i < COUNT / 2 ? i : COUNT - i)],
  ['the median-of-three killer', (i) => (i % 2 === 0 ? i / 2 : COUNT / 2 + i)],
  ['sawtooth', (i) => i % 64],
  ['the largest around the middle, where a sample is taken', (i) => (Math.abs(i - COUNT / 2) < COUNT / 16 ? COUNT + i : i)],
  ['both extremes around the middle', (i) => (Math.abs(i - COUNT / 2) < COUNT / 16 ? (i % 2 === 0 ? -i : 2 * COUNT + i) : i)],
  ['all equal', () => 7],
  ['two values', (i) => i % 2],
  ['rotated', (i) => (i + COUNT / 4) % COUNT],
];

describe('placing the nth key', () => {
  for (const [name, keyOf] of ORDERS) {
    it(`places it as a sort would, in linear steps, on keys ${name}`, () => {
      const keys = Float64Array.from({ length: COUNT }, (_, i) => keyOf(i));
      const sorted = keys.slice().sort();
      for (const nth of [0, COUNT >> 2, COUNT >> 1, COUNT - 1]) {
        const items = Uint32Array.from({ length: COUNT }, (_, i) => i);
        const pacer = new CountingPacer();
        placeNth(items, 0, COUNT, nth, keys, pacer);
        expect(keys[items[nth]]).toBe(sorted[nth]);
        expect(items.subarray(0, nth).every((item) => keys[item] <= sorted[nth])).toBe(true);
        expect(items.subarray(nth).every((item) => keys[item] >= sorted[nth])).toBe(true);
        expect(Uint32Array.from(items).sort()).toEqual(Uint32Array.from({ length: COUNT }, (_, i) => i));
        expect(pacer.steps).toBeLessThan(STEPS_PER_KEY * COUNT);
      }
    });
  }

  it('places within a range only, leaving the items around it where they were', () => {
    const keys = Float64Array.from({ length: 1000 }, (_, i) => 1000 - i);
    const items = Uint32Array.from({ length: 1000 }, (_, i) => i);
    placeNth(items, 100, 900, 500, keys, new CountingPacer());
    expect(keys[items[500]]).toBe(501);
    expect(Array.from(items.subarray(0, 100))).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(Array.from(items.subarray(900))).toEqual(Array.from({ length: 100 }, (_, i) => 900 + i));
    expect(Array.from(items.subarray(100, 900)).sort((a, b) => a - b)).toEqual(Array.from({ length: 800 }, (_, i) => 100 + i));
  });

  it('moves the items, and the values along, with their keys in place', () => {
    const keys = Float64Array.from({ length: 5000 }, () => Math.floor(next() * 300));
    const items = Uint32Array.from({ length: 5000 }, (_, i) => i);
    const along = Float64Array.from(keys, (key) => -key);
    const before = Float64Array.from(keys);
    placeNthInPlace(keys, items, along, 0, keys.length, 2500, new CountingPacer());
    expect(keys[2500]).toBe(before.slice().sort()[2500]);
    expect(items.every((item, at) => before[item] === keys[at] && along[at] === -keys[at])).toBe(true);
    expect(keys.subarray(0, 2500).every((key) => key <= keys[2500]) && keys.subarray(2500).every((key) => key >= keys[2500])).toBe(true);
  });
});
