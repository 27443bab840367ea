/**
 * What classifying a field (or counting a theme's rules) finds: plain data, so that it crosses
 * from a drawing worker to the main thread by structured clone and can be cached there. The
 * legend (legend-for.ts) and a feature's class (class-of.ts) are both read from it, in the one
 * class order written down here.
 */
import type { ClassifyMethod } from './methods.ts';

/**
 * A number field's classes. Class i holds the values v with breaks[i - 1] < v ≤ breaks[i]
 * (the first class from `min`, inclusive): its exact bounds are (breaks[i - 1], breaks[i]].
 */
export interface NumericClasses {
  kind: 'numeric';
  /** The `.dbf` field as the file spells it. */
  field: string;
  method: Exclude<ClassifyMethod, 'categories'>;
  /** Each class's upper bound, strictly ascending; the last is the largest value. Empty when no feature has a value. */
  breaks: number[];
  /** The smallest value; null when no feature has a value. */
  min: number | null;
  /** Features in each class. */
  counts: number[];
  /** Features without a value (blank, or not a finite number). */
  nulls: number;
  /** Every value is an integer: a class's label then names the integers it holds ("20 – 39"). */
  integers: boolean;
  /** There were no more distinct values than classes: each class is one value (its break). */
  oneValueEach: boolean;
}

/** A field's distinct values, each its own class, in order of first appearance. */
export interface CategoryClasses {
  kind: 'categories';
  field: string;
  method: 'categories';
  /** At most maxCategories values. */
  values: (string | number | boolean)[];
  /** Features with each value. */
  counts: number[];
  /** Features whose value is not among `values` (more distinct values than maxCategories): the "other" class, there when > 0. */
  other: number;
  nulls: number;
}

/** A theme's rules: how many features each rule styles (the first whose filter matches). */
export interface RuleClasses {
  kind: 'rules';
  /** One count per rule, in the theme's order. */
  counts: number[];
  /** Features no rule matches: drawn in the plain style, not in the legend. */
  unmatched: number;
}

export type Classification = NumericClasses | CategoryClasses | RuleClasses;

/** Where the classes beyond the values' own stand in the legend: the values' classes first, then "other", then the null class. */
export interface ClassSlots {
  /** The "other" class's index; undefined when there is none. */
  other: number | undefined;
  /** The null class's index ("no value"), always last; undefined when every feature has a value. */
  nulls: number | undefined;
}

export function classSlots(classification: NumericClasses | CategoryClasses): ClassSlots {
  const valueClasses = classification.kind === 'numeric' ? classification.breaks.length : classification.values.length;
  const other = classification.kind === 'categories' && classification.other > 0 ? valueClasses : undefined;
  const beforeNulls = valueClasses + (other === undefined ? 0 : 1);
  return { other, nulls: classification.nulls > 0 ? beforeNulls : undefined };
}
