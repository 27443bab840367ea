/**
 * classifyValues, the pure part of classification: the methods' breaks on small known data,
 * what it does where the data cannot fill the classes asked for, the same answer whatever the
 * values' order, and bounded categories.
 */
import { describe, expect, it } from 'vitest';
import type { AttributeValue } from '../../src/shapefile/dbf.ts';
import { classifyValues, type ClassifyOptions } from '../../src/thematic/classify-values.ts';
import { JENKS_BUDGET } from '../../src/thematic/jenks.ts';

const options = (method: ClassifyOptions['method'], classes = 5, maxCategories = 24): ClassifyOptions => ({ field: 'F', method, classes, maxCategories });

/** The same values in another order, by a fixed shuffle. */
function shuffled<T>(values: readonly T[]): T[] {
  const copy = [...values];
  let seed = 12345;
  for (let i = copy.length - 1; i > 0; i--) {
    seed = (seed * 16807) % 2147483647;
    const j = seed % (i + 1);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

describe('numeric classes', () => {
  it('are equal intervals from the smallest to the largest value', () => {
    expect(classifyValues([1, 2, 3, 4, 5, 6], options('equal', 4))).toEqual({
      kind: 'numeric',
      field: 'F',
      method: 'equal',
      breaks: [2.25, 3.5, 4.75, 6],
      min: 1,
      counts: [2, 1, 1, 2],
      nulls: 0,
      integers: true,
      oneValueEach: false,
    });
  });

  it("are R's type 7 quantiles (simple-statistics' own example: the median of these is 9)", () => {
    const values = [3, 6, 7, 8, 8, 9, 10, 13, 15, 16, 20];
    expect(classifyValues(values, options('quantile', 2))).toMatchObject({ breaks: [9, 20] });
  });

  it("are the ckmeans clusters for jenks (simple-statistics' own example: [[-1, -1, -1, -1], [2, 2, 2], [4, 5, 6]])", () => {
    expect(classifyValues([-1, 2, -1, 2, 4, 5, 6, -1, 2, -1], options('jenks', 3))).toMatchObject({ breaks: [-1, 2, 6], min: -1, counts: [4, 3, 3] });
  });

  it('are one class per distinct value when there are no more distinct values than classes', () => {
    const classes = classifyValues([3, 1, 3, 3, 7, 1], options('quantile', 5));
    expect(classes).toMatchObject({ breaks: [1, 3, 7], min: 1, counts: [2, 3, 1], oneValueEach: true });
  });

  it('never hold an empty quantile class: one that an interpolated quantile leaves empty joins the next', () => {
    // Type 7 puts the second third at 2.67: no value lies in (2, 2.67].
    expect(classifyValues([0, 2, 2, 3, 30], options('quantile', 3))).toMatchObject({ breaks: [2, 30], counts: [3, 2], oneValueEach: false });
  });

  it('never hold an empty quantile class: repeated quantiles are one break', () => {
    const values = [...Array(50).fill(0), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const classes = classifyValues(values, options('quantile', 5));
    if (classes.kind !== 'numeric') throw new Error('numeric expected');
    expect(classes.counts.every((count) => count > 0)).toBe(true);
    expect(classes.breaks.every((bound, i) => i === 0 || bound > classes.breaks[i - 1])).toBe(true);
    expect(classes.counts.reduce((sum, count) => sum + count, 0)).toBe(60);
    expect(classes.breaks[0]).toBe(0);
  });

  it('keep the empty classes of equal intervals, which are the data’s gaps', () => {
    expect(classifyValues([0, 1, 2, 100, 99, 98], options('equal', 5))).toMatchObject({ breaks: [20, 40, 60, 80, 100], counts: [3, 0, 0, 0, 3] });
  });

  it('count nulls and numbers that are not finite apart', () => {
    const classes = classifyValues([null, 1, Infinity, 2, -Infinity, null, 3, 4, 5, 6], options('equal', 2));
    expect(classes).toMatchObject({ nulls: 4, min: 1, breaks: [3.5, 6], counts: [3, 3] });
  });

  it('are none when no value is there', () => {
    expect(classifyValues([null, null], options('jenks'))).toMatchObject({ breaks: [], min: null, counts: [], nulls: 2 });
    expect(classifyValues([], options('quantile'))).toMatchObject({ breaks: [], min: null, counts: [], nulls: 0 });
  });

  it('say whether every value is an integer', () => {
    expect(classifyValues([1, 2, 3, 4, 5, 6.5], options('equal', 2))).toMatchObject({ integers: false });
  });

  it.each(['quantile', 'equal', 'jenks'] as const)('by %s do not depend on the order of the values', (method) => {
    const values = Array.from({ length: 5000 }, (_, i) => ((i * 7919) % 5000) / 7 + (i % 3 === 0 ? 0.1 : 0));
    expect(classifyValues(shuffled(values), options(method, 7))).toEqual(classifyValues(values, options(method, 7)));
  });

  it(`by jenks over more than ${JENKS_BUDGET} distinct values cluster bins of them, the same whatever the order`, () => {
    const values = Array.from({ length: JENKS_BUDGET + 10_000 }, (_, i) => (i % 1000) ** 2 + i / 1e6);
    const classes = classifyValues(values, options('jenks', 6));
    if (classes.kind !== 'numeric') throw new Error('numeric expected');
    expect(classes.breaks).toHaveLength(6);
    expect(classes.breaks.at(-1)).toBe(values.reduce((largest, value) => Math.max(largest, value)));
    expect(classes.counts.reduce((sum, count) => sum + count, 0)).toBe(values.length);
    expect(classes.counts.every((count) => count > 0)).toBe(true);
    expect(classifyValues(shuffled(values), options('jenks', 6))).toEqual(classes);
  });

  it('refuse a value of another type (the job checks the field type first)', () => {
    expect(() => classifyValues([1, 'x'], options('quantile'))).toThrow(TypeError);
  });
});

describe('categories', () => {
  it('are the distinct values in order of first appearance, nulls apart', () => {
    const values: AttributeValue[] = ['b', 'a', null, 'b', 'c', 'a', 'b', null];
    expect(classifyValues(values, options('categories'))).toEqual({
      kind: 'categories',
      field: 'F',
      method: 'categories',
      values: ['b', 'a', 'c'],
      counts: [3, 2, 1],
      other: 0,
      nulls: 2,
    });
  });

  it('take logicals and numbers as they are', () => {
    expect(classifyValues([true, false, true, null], options('categories'))).toMatchObject({ values: [true, false], counts: [2, 1], nulls: 1 });
    expect(classifyValues([2024, 2023, 2024], options('categories'))).toMatchObject({ values: [2024, 2023], counts: [2, 1] });
  });

  it('of 10,000 distinct values are the first 24, the rest in "other"', () => {
    const values = Array.from({ length: 10_000 }, (_, i) => `value ${i}`);
    const classes = classifyValues(values, options('categories', 5, 24));
    expect(classes).toMatchObject({ values: values.slice(0, 24), counts: Array(24).fill(1), other: 9976, nulls: 0 });
  });
});
