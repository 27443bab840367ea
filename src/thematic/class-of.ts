/**
 * A feature's class, from its value: the index of its entry in the legend (legendFor's
 * classes, in classification.ts's order), which picks its colour and is hot spots' `Class`.
 * Built once per drawing, called once per feature.
 */
import type { AttributeValue } from '../shapefile/dbf.ts';
import { classSlots, type CategoryClasses, type NumericClasses } from './classification.ts';

/**
 * The class of each value. A number goes to the first class whose max is ≥ it; one the
 * classification did not see (a drawing of other features than were classified) goes past
 * the last max to the last class, under the min to the first. A category not listed goes to
 * "other". undefined, for the plain style, only where no class can say anything of the
 * value: a category not listed when there is no "other" class, a null when there is no
 * null class, any value when no feature had one.
 */
export function classIndexer(classification: NumericClasses | CategoryClasses): (value: AttributeValue) => number | undefined {
  const slots = classSlots(classification);
  if (classification.kind === 'numeric') {
    const { breaks } = classification;
    return (value) => {
      if (typeof value !== 'number' || !Number.isFinite(value)) return slots.nulls;
      if (breaks.length === 0) return undefined;
      return firstAtLeast(breaks, value);
    };
  }
  const indexOf = new Map(classification.values.map((value, i) => [value, i]));
  return (value) => (value === null ? slots.nulls : (indexOf.get(value) ?? slots.other));
}

/** The first index whose bound is ≥ `value`; the last index when none is. */
function firstAtLeast(breaks: readonly number[], value: number): number {
  let low = 0;
  let high = breaks.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (breaks[middle] >= value) high = middle;
    else low = middle + 1;
  }
  return low;
}
