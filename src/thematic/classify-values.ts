/**
 * Classifies the values of one field (docs/decisions.md, "Thematic styling"): the statistics are
 * simple-statistics', but for jenks' natural breaks (jenks.ts), over the values sorted once,
 * so the same values give the same breaks on every machine whatever order they came in (ETags
 * depend on it). Memory stays bounded by the values themselves: numbers go into one
 * Float64Array, categories into a Map of at most maxCategories entries, then only counts.
 */
import { equalIntervalBreaks, quantileSorted } from 'simple-statistics';
import type { AttributeValue } from '../shapefile/dbf.ts';
import type { CategoryClasses, NumericClasses } from './classification.ts';
import { jenksBreaks } from './jenks.ts';
import type { ClassifyMethod } from './methods.ts';

export interface ClassifyOptions {
  /** The `.dbf` field as the file spells it: what the legend names. */
  field: string;
  method: ClassifyMethod;
  /** Classes of the numeric methods. */
  classes: number;
  /** The most categories before the rest share "other". */
  maxCategories: number;
}

/** The classes of `values` (one per feature; null where it has none) by `options.method`. */
export function classifyValues(values: Iterable<AttributeValue>, options: ClassifyOptions): NumericClasses | CategoryClasses {
  return options.method === 'categories' ? classifyCategories(values, options) : classifyNumbers(values, { ...options, method: options.method });
}

function classifyCategories(values: Iterable<AttributeValue>, { field, maxCategories }: ClassifyOptions): CategoryClasses {
  const classOf = new Map<string | number | boolean, number>();
  const counts: number[] = [];
  let other = 0;
  let nulls = 0;
  for (const value of values) {
    if (value === null) {
      nulls++;
      continue;
    }
    const index = classOf.get(value);
    if (index !== undefined) counts[index]++;
    else if (classOf.size < maxCategories) {
      classOf.set(value, counts.length);
      counts.push(1);
    } else other++;
  }
  return { kind: 'categories', field, method: 'categories', values: [...classOf.keys()], counts, other, nulls };
}

type NumericOptions = ClassifyOptions & { method: NumericClasses['method'] };

function classifyNumbers(values: Iterable<AttributeValue>, { field, method, classes }: NumericOptions): NumericClasses {
  const { sorted, nulls } = sortedNumbers(values, field);
  const empty: NumericClasses = { kind: 'numeric', field, method, breaks: [], min: null, counts: [], nulls, integers: true, oneValueEach: false };
  if (sorted.length === 0) return empty;
  const distinct = distinctValues(sorted, classes);
  const oneValueEach = distinct !== undefined;
  // No more distinct values than classes: one class each, rather than classes that no value could fill.
  let breaks = distinct ?? ascending(methodBreaks(sorted, method, classes));
  let counts = classCounts(sorted, breaks);
  // An interpolated quantile can fall so that a class holds no value; it joins the next one.
  if (method === 'quantile' && counts.includes(0)) {
    breaks = breaks.filter((_, i) => counts[i] > 0);
    counts = classCounts(sorted, breaks);
  }
  return { ...empty, breaks, min: sorted[0], counts, integers: sorted.every(Number.isInteger), oneValueEach };
}

/** The finite numbers among `values`, sorted ascending, and how many values were null or not finite. */
function sortedNumbers(values: Iterable<AttributeValue>, field: string): { sorted: Float64Array; nulls: number } {
  let numbers = new Float64Array(1024);
  let length = 0;
  let nulls = 0;
  for (const value of values) {
    if (typeof value !== 'number') {
      if (value !== null) throw new TypeError(`Field '${field}' holds ${typeof value} values; only a number field takes a numeric method.`);
      nulls++;
    } else if (!Number.isFinite(value)) {
      // A dBASE number of "1e999" reads as Infinity: no class could hold it, so it counts as no value.
      nulls++;
    } else {
      if (length === numbers.length) {
        const grown = new Float64Array(numbers.length * 2);
        grown.set(numbers);
        numbers = grown;
      }
      numbers[length++] = value === 0 ? 0 : value; // -0 and 0 are one value
    }
  }
  return { sorted: numbers.subarray(0, length).sort(), nulls };
}

/** The upper bound of each class by the method's definition, the largest value last. */
function methodBreaks(sorted: Float64Array, method: NumericClasses['method'], classes: number): number[] {
  const max = sorted[sorted.length - 1];
  switch (method) {
    case 'equal':
      // simple-statistics reads only the smallest and largest value: [min, min + step, …, max].
      return equalIntervalBreaks([sorted[0], max], classes).slice(1);
    case 'quantile': {
      // R's type 7 (numpy's 'linear'); the typed array is read by index only.
      const asArray = sorted as unknown as number[];
      return [...Array.from({ length: classes - 1 }, (_, i) => quantileSorted(asArray, (i + 1) / classes)), max];
    }
    case 'jenks':
      return jenksBreaks(sorted, classes);
  }
}

/** `breaks` with repeated bounds removed (two equal breaks would make an empty class). */
function ascending(breaks: number[]): number[] {
  return breaks.filter((bound, i) => i === breaks.length - 1 || bound < breaks[i + 1]);
}

/** The distinct values of `sorted` when there are at most `limit` of them; undefined when there are more. */
function distinctValues(sorted: Float64Array, limit: number): number[] | undefined {
  const distinct: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    if (i > 0 && sorted[i] === sorted[i - 1]) continue;
    if (distinct.length === limit) return undefined;
    distinct.push(sorted[i]);
  }
  return distinct;
}

/** Values in each class (breaks[i - 1], breaks[i]], by binary search over the sorted values. */
function classCounts(sorted: Float64Array, breaks: readonly number[]): number[] {
  let below = 0;
  return breaks.map((bound) => {
    const through = countAtMost(sorted, bound);
    const count = through - below;
    below = through;
    return count;
  });
}

/** How many of the sorted values are ≤ `bound`. */
function countAtMost(sorted: Float64Array, bound: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] <= bound) low = middle + 1;
    else high = middle;
  }
  return low;
}
