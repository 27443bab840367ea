/**
 * std::nth_element for items keyed by a Float64Array, in linear time whatever the keys:
 * quickselect with a median-of-three pivot, which splits well on ordinary data, and the
 * median of medians (a pivot with at least 3/10 of the items on each side) from the moment
 * two splits in a row have failed to halve the range, so that no arrangement of keys
 * (hostile records choose theirs) can make it quadratic. Equal keys are grouped around the
 * pivot (a three-way partition), so many equal keys cost no more than distinct ones.
 */
import type { StepPacer } from '../cancellation/checkpoint.ts';

/** Ranges this short are sorted outright. */
const SHORT_RANGE = 8;
const GROUP = 5;

/**
 * Rearranges items[first … end − 1] so that items[nth] is the item a sort by keys[item]
 * would put there, with no greater key before it and no smaller key after it.
 */
export function placeNth(items: Uint32Array, first: number, end: number, nth: number, keys: Float64Array, pacer: StepPacer): void {
  let sizeTwoSplitsAgo = Infinity;
  let sizeOneSplitAgo = Infinity;
  let guaranteed = false;
  while (end - first > SHORT_RANGE) {
    const size = end - first;
    guaranteed ||= size > sizeTwoSplitsAgo / 2;
    [sizeTwoSplitsAgo, sizeOneSplitAgo] = [sizeOneSplitAgo, size];
    const pivot = guaranteed ? medianOfMedians(items, first, end, keys, pacer) : medianOfThree(items, first, end, keys);
    const [lessEnd, greaterStart] = partitionAround(items, first, end, pivot, keys, pacer);
    if (nth < lessEnd) end = lessEnd;
    else if (nth >= greaterStart) first = greaterStart;
    else return;
  }
  sortShortRange(items, first, end, keys);
  pacer.step((end - first) ** 2);
}

function medianOfThree(items: Uint32Array, first: number, end: number, keys: Float64Array): number {
  const a = keys[items[first]];
  const b = keys[items[(first + end) >> 1]];
  const c = keys[items[end - 1]];
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
}

/** The median of the medians of groups of five: each group's median is moved to the front of the range, then their median placed. */
function medianOfMedians(items: Uint32Array, first: number, end: number, keys: Float64Array, pacer: StepPacer): number {
  let medians = first;
  for (let group = first; group < end; group += GROUP) {
    const groupEnd = Math.min(group + GROUP, end);
    sortShortRange(items, group, groupEnd, keys);
    swap(items, medians++, (group + groupEnd) >> 1);
    pacer.step(GROUP * GROUP);
  }
  const middle = (first + medians) >> 1;
  placeNth(items, first, medians, middle, keys, pacer);
  return keys[items[middle]];
}

/** Three-way partition: keys below the pivot first, then equal ones, then greater ones; returns where the equal ones start and end. */
function partitionAround(items: Uint32Array, first: number, end: number, pivot: number, keys: Float64Array, pacer: StepPacer): [number, number] {
  let lessEnd = first;
  let greaterStart = end;
  for (let at = first; at < greaterStart; ) {
    const key = keys[items[at]];
    if (key < pivot) swap(items, lessEnd++, at++);
    else if (key > pivot) swap(items, at, --greaterStart);
    else at++;
    pacer.step();
  }
  return [lessEnd, greaterStart];
}

function sortShortRange(items: Uint32Array, first: number, end: number, keys: Float64Array): void {
  for (let at = first + 1; at < end; at++) {
    const item = items[at];
    let to = at;
    for (; to > first && keys[items[to - 1]] > keys[item]; to--) items[to] = items[to - 1];
    items[to] = item;
  }
}

function swap(items: Uint32Array, a: number, b: number): void {
  const item = items[a];
  items[a] = items[b];
  items[b] = item;
}
