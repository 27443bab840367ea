/**
 * std::nth_element for items keyed by a Float64Array, in linear time whatever the keys.
 * Large ranges take their pivot from a sample (Floyd and Rivest's: the nth key of a
 * sub-range around the nth place, selected the same way), so that a million keys are
 * passed over about one and a half times; smaller ones a median of three. Once a selection
 * has passed over four times its range's keys, its pivots are medians of medians (at least
 * 3/10 of the keys on each side), so that no arrangement of keys (hostile records choose
 * theirs) can make it more than linear. Equal keys are grouped around the pivot (a
 * three-way partition), so many equal keys cost no more than distinct ones. The keys are
 * moved with their items, so that a selection reads memory in order rather than at each
 * item's place.
 */
import type { StepPacer } from '../cancellation/checkpoint.ts';

/** Ranges this short are sorted outright. */
const SHORT_RANGE = 8;
const GROUP = 5;
/** Ranges longer than this take their pivot from a sample; below it, sampling costs more than it saves. */
const SAMPLED_RANGE = 600;
/**
 * Keys a selection may pass over, per key of its range, before its pivots are medians of
 * medians: more than a median of three needs on keys in no particular order (some 2.75),
 * so that ordinary ranges seldom pay for the guarantee.
 */
const PARTITION_BUDGET = 4;

/**
 * Rearranges items[first … end − 1] so that items[nth] is the item a sort by keys[item]
 * would put there, with no greater key before it and no smaller key after it. The keys are
 * copied beside the items first (placeNthInPlace).
 */
export function placeNth(items: Uint32Array, first: number, end: number, nth: number, keys: Float64Array, pacer: StepPacer): void {
  const placedKeys = new Float64Array(end - first);
  for (let at = first; at < end; at++) placedKeys[at - first] = keys[items[at]];
  pacer.step(end - first);
  placeNthInPlace(placedKeys, items.subarray(first, end), undefined, 0, end - first, nth - first, pacer);
}

/**
 * placeNth for keys kept beside their items: keys[at] is the key of items[at] (and of
 * along[at], when given), and the three are moved together, so that keys[nth] ends up where a
 * sort would put it, with no greater key before it and no smaller key after it.
 */
export function placeNthInPlace(
  keys: Float64Array,
  items: Uint32Array,
  along: Float64Array | undefined,
  first: number,
  end: number,
  nth: number,
  pacer: StepPacer,
): void {
  const range = { keys, items, along };
  const budget = PARTITION_BUDGET * (end - first);
  let partitioned = 0;
  while (end - first > SHORT_RANGE) {
    const size = end - first;
    const pivot =
      partitioned > budget
        ? medianOfMedians(range, first, end, pacer)
        : size > SAMPLED_RANGE
          ? sampledPivot(range, first, end, nth, pacer)
          : medianOfThree(keys, first, end);
    const [lessEnd, greaterStart] = partitionAround(range, first, end, pivot);
    partitioned += size;
    pacer.step(size);
    if (nth < lessEnd) end = lessEnd;
    else if (nth >= greaterStart) first = greaterStart;
    else return;
  }
  sortShortRange(range, first, end);
  pacer.step((end - first) ** 2);
}

/** The arrays a selection moves together. */
interface Placed {
  keys: Float64Array;
  items: Uint32Array;
  along: Float64Array | undefined;
}

function medianOfThree(keys: Float64Array, first: number, end: number): number {
  const a = keys[first];
  const b = keys[(first + end) >> 1];
  const c = keys[end - 1];
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
}

/**
 * Floyd and Rivest's pivot (as in their SELECT, 1975): the key at `nth` once a sub-range
 * around it, of some size^(2/3) keys placed as nth's share of the range is, has been
 * selected; it is near the range's own nth key with high probability when the keys are in
 * no particular order, and a poor one is caught by placeNthInPlace's count of failed splits.
 */
function sampledPivot(range: Placed, first: number, end: number, nth: number, pacer: StepPacer): number {
  const size = end - first;
  const rank = nth - first + 1;
  const logSize = Math.log(size);
  const sample = 0.5 * Math.exp((2 * logSize) / 3);
  const margin = 0.5 * Math.sqrt((logSize * sample * (size - sample)) / size) * (rank < size / 2 ? -1 : 1);
  const sampleFirst = Math.max(first, Math.floor(nth - (rank * sample) / size + margin));
  const sampleEnd = Math.min(end, Math.floor(nth + ((size - rank) * sample) / size + margin) + 1);
  placeNthInPlace(range.keys, range.items, range.along, sampleFirst, sampleEnd, nth, pacer);
  return range.keys[nth];
}

/** The median of the medians of groups of five: each group's median is moved to the front of the range, then their median placed. */
function medianOfMedians(range: Placed, first: number, end: number, pacer: StepPacer): number {
  let medians = first;
  for (let group = first; group < end; group += GROUP) {
    const groupEnd = Math.min(group + GROUP, end);
    sortShortRange(range, group, groupEnd);
    swap(range, medians++, (group + groupEnd) >> 1);
    pacer.step(GROUP * GROUP);
  }
  const middle = (first + medians) >> 1;
  placeNthInPlace(range.keys, range.items, range.along, first, medians, middle, pacer);
  return range.keys[middle];
}

/**
 * Three-way partition (Bentley and McIlroy's): keys below the pivot first, then equal ones,
 * then greater ones; returns where the equal ones start and end. The scans from both ends
 * swap only keys on the wrong side (and equal ones, parked at the ends until the scans
 * meet), so that distinct keys cost about a swap for every four.
 */
function partitionAround(range: Placed, first: number, end: number, pivot: number): [number, number] {
  const keys = range.keys;
  let equalsBefore = first;
  let low = first;
  let high = end - 1;
  let equalsAfter = end - 1;
  for (;;) {
    for (; low <= high && keys[low] <= pivot; low++) if (keys[low] === pivot) swap(range, equalsBefore++, low);
    for (; low <= high && keys[high] >= pivot; high--) if (keys[high] === pivot) swap(range, high, equalsAfter--);
    if (low > high) break;
    swap(range, low++, high--);
  }
  const less = low - equalsBefore;
  const greater = equalsAfter - high;
  swapBlocks(range, first, low - Math.min(equalsBefore - first, less), Math.min(equalsBefore - first, less));
  swapBlocks(range, low, end - Math.min(end - 1 - equalsAfter, greater), Math.min(end - 1 - equalsAfter, greater));
  return [first + less, end - greater];
}

/** Swaps the `count` entries from `a` with those from `b`. */
function swapBlocks(range: Placed, a: number, b: number, count: number): void {
  for (let k = 0; k < count; k++) swap(range, a + k, b + k);
}

/** Insertion sort, each entry shifted into place. */
function sortShortRange({ keys, items, along }: Placed, first: number, end: number): void {
  for (let at = first + 1; at < end; at++) {
    const key = keys[at];
    const item = items[at];
    const value = along === undefined ? 0 : along[at];
    let to = at;
    for (; to > first && keys[to - 1] > key; to--) {
      keys[to] = keys[to - 1];
      items[to] = items[to - 1];
      if (along !== undefined) along[to] = along[to - 1];
    }
    keys[to] = key;
    items[to] = item;
    if (along !== undefined) along[to] = value;
  }
}

function swap({ keys, items, along }: Placed, a: number, b: number): void {
  const key = keys[a];
  keys[a] = keys[b];
  keys[b] = key;
  const item = items[a];
  items[a] = items[b];
  items[b] = item;
  if (along !== undefined) {
    const value = along[a];
    along[a] = along[b];
    along[b] = value;
  }
}
