/**
 * classIndexer: a feature's class from its value, the same index as its entry in legendFor's
 * classes, including for values the classification did not see.
 */
import { describe, expect, it } from 'vitest';
import { classIndexer } from '../../src/thematic/class-of.ts';
import type { CategoryClasses, NumericClasses } from '../../src/thematic/classification.ts';
import { classifyValues } from '../../src/thematic/classify-values.ts';
import { legendFor } from '../../src/thematic/legend-for.ts';

const numeric: NumericClasses = { kind: 'numeric', field: 'F', method: 'equal', breaks: [10, 20, 30], min: 0, counts: [1, 1, 1], nulls: 2, integers: true, oneValueEach: false };

describe('the class of a number', () => {
  const classOf = classIndexer(numeric);

  it('is the first class whose max is at least the value', () => {
    expect([0, 5, 10, 10.000001, 20, 29, 30].map(classOf)).toEqual([0, 0, 0, 1, 1, 2, 2]);
  });

  it('is the last class past the last max and the first under the min (values not classified)', () => {
    expect(classOf(1e9)).toBe(2);
    expect(classOf(-5)).toBe(0);
  });

  it('is the null class, after the others, for no value or one that is not finite', () => {
    expect([null, Infinity, Number.NaN].map(classOf)).toEqual([3, 3, 3]);
  });

  it('is undefined (the plain style) for a null when no feature classified had none', () => {
    expect(classIndexer({ ...numeric, nulls: 0 })(null)).toBeUndefined();
    expect(classIndexer({ ...numeric, breaks: [], counts: [], min: null, nulls: 0 })(5)).toBeUndefined();
  });

  it("is the index of the feature's entry in the legend", () => {
    const values = [3, 8, null, 12, 19, 25, 40, 41, 7, null, 33];
    const classes = classifyValues(values, { field: 'F', method: 'quantile', classes: 4, maxCategories: 24 });
    const legend = legendFor(classes, { reversePalette: false, nullColor: { r: 0, g: 0, b: 0, a: 1 }, culture: 'English' });
    const counts = legend.classes.map(() => 0);
    for (const value of values) counts[classIndexer(classes)(value)!]++;
    expect(counts).toEqual(legend.classes.map((entry) => entry.count));
  });
});

describe('the class of a category', () => {
  const categories: CategoryClasses = { kind: 'categories', field: 'F', method: 'categories', values: ['a', 'b'], counts: [1, 1], other: 3, nulls: 1 };

  it('is its value’s class, "other" for a value not listed, then the null class', () => {
    const classOf = classIndexer(categories);
    expect(['a', 'b', 'zzz', null].map(classOf)).toEqual([0, 1, 2, 3]);
  });

  it('is undefined (the plain style) for a value not listed when there is no "other" class', () => {
    const classOf = classIndexer({ ...categories, other: 0 });
    expect(classOf('zzz')).toBeUndefined();
    expect(classOf(null)).toBe(2);
  });
});
