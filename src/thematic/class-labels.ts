/**
 * The text of a legend's classes, as people read them: numeric bounds rounded to the fewest
 * significant digits that keep adjacent classes apart, each bound written once and the same
 * way in the two classes it divides (no gap, no overlap), with the culture's thousands
 * separators and decimal mark; a category as its value reads.
 */
import type { Culture } from '../plugin-contract/basemap-plugin.ts';
import type { NumericClasses } from './classification.ts';

/** Between a class's two bounds. */
const RANGE_DASH = ' – ';
/** A bound keeps at least two significant digits ("0.5 – 1.2", not "0.5 – 1"). */
const MIN_DIGITS = 2;
/** Enough to tell any two doubles apart. */
const MAX_DIGITS = 17;

const LOCALES: Record<Culture, string> = { English: 'en-US', Dutch: 'nl-NL' };

export const OTHER_LABEL = 'other';
export const NULL_LABEL = 'no value';

/** One label per class of `classes`, in class order. */
export function numericLabels(classes: NumericClasses, culture: Culture): string[] {
  const { breaks, min } = classes;
  if (min === null) return [];
  const locale = LOCALES[culture];
  if (classes.oneValueEach) {
    const format = classes.integers ? integerFormat(locale) : roundedFormat(locale, digitsKeepingApart(breaks));
    return breaks.map(format);
  }
  const bounds = [min, ...breaks];
  return (classes.integers && integerLabels(bounds, locale)) || roundedLabels(bounds, locale);
}

/** A category's value as text: "yes" and "no" for logicals, dates as the `.dbf` holds them (ISO), numbers in full. */
export function categoryLabel(value: string | number | boolean, culture: Culture): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value;
  // The shortest text that reads back as the value; no grouping: a category such as a year is a name, not an amount.
  return String(value).replace('.', decimalMark(LOCALES[culture]));
}

/**
 * Integer data: class i holds the integers from just above the previous bound to its own
 * ("0 – 19", "20 – 39"), even where a bound itself is not an integer (a quantile of 19.8).
 * undefined when a class would hold no integer: the bounds are written as they are then.
 */
function integerLabels(bounds: readonly number[], locale: string): string[] | undefined {
  const format = integerFormat(locale);
  const labels: string[] = [];
  for (let i = 1; i < bounds.length; i++) {
    const low = i === 1 ? bounds[0] : Math.floor(bounds[i - 1]) + 1;
    const high = Math.floor(bounds[i]);
    if (low > high) return undefined;
    labels.push(low === high ? format(high) : format(low) + RANGE_DASH + format(high));
  }
  return labels;
}

/** Each bound rounded once, so the class below and the class above write it the same way. */
function roundedLabels(bounds: readonly number[], locale: string): string[] {
  const text = bounds.map(roundedFormat(locale, digitsKeepingApart(bounds)));
  return text.slice(1).map((high, i) => (text[i] === high ? high : text[i] + RANGE_DASH + high));
}

/** The fewest significant digits (at least MIN_DIGITS) at which no two different adjacent values of the ascending `values` round alike. */
function digitsKeepingApart(values: readonly number[]): number {
  for (let digits = MIN_DIGITS; digits < MAX_DIGITS; digits++) {
    const rounded = values.map((value) => roundTo(value, digits));
    if (values.every((value, i) => i === 0 || value === values[i - 1] || rounded[i] !== rounded[i - 1])) return digits;
  }
  return MAX_DIGITS;
}

function roundTo(value: number, digits: number): number {
  return Number(value.toPrecision(digits));
}

function roundedFormat(locale: string, digits: number): (value: number) => string {
  const format = new Intl.NumberFormat(locale, { maximumSignificantDigits: digits });
  // Rounded first by toPrecision, the same rounding digitsKeepingApart judged: Intl then only writes it.
  return (value) => format.format(roundTo(value, digits));
}

function integerFormat(locale: string): (value: number) => string {
  const format = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  return (value) => format.format(value);
}

/** By locale: a label of a number per feature would otherwise build an Intl.NumberFormat each (24 µs). */
const decimalMarks = new Map<string, string>();

function decimalMark(locale: string): string {
  let mark = decimalMarks.get(locale);
  if (mark === undefined) {
    mark = new Intl.NumberFormat(locale).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
    decimalMarks.set(locale, mark);
  }
  return mark;
}
