/**
 * The order in which OGRGeometryFactory::organizePolygons visits rings: by descending
 * area, through std::sort. std::sort is not stable, and rings of equal area are common
 * (repeated rings, equal squares), so where equal rings land decides which outer ring
 * gets a hole. GDAL 3.6 as Debian ships it is built against GCC 12's libstdc++, whose
 * std::sort (bits/stl_algo.h, bits/stl_heap.h) this reproduces step for step: introsort
 * with median-of-three pivots, heapsort past 2·log2(n) levels, and a final insertion sort
 * for runs of 16. With up to 16 rings that is a plain insertion sort, which keeps equal
 * rings in file order; with more, equal rings come out shuffled, exactly as in GDAL.
 *
 * The only departure: where a comparison involving a NaN area (coordinates near the
 * largest doubles overflow) would let libstdc++'s unguarded loops run off the array
 * (undefined behaviour in C++), these stop at its ends.
 */
import type { StepPacer } from '../../cancellation/checkpoint.ts';

const INSERTION_SORT_THRESHOLD = 16;

/** Ring indices ordered as GDAL's std::sort(…, OGRGeometryFactoryCompareArea) leaves them. */
export function ringsByDescendingArea(area: Float64Array, pacer: StepPacer): Uint32Array {
  const rings = new Uint32Array(area.length);
  for (let ring = 0; ring < rings.length; ring++) rings[ring] = ring;
  new LibstdcxxSort(rings, (a, b) => {
    pacer.step();
    return area[b] < area[a];
  }).sort();
  return rings;
}

/** libstdc++'s std::sort over a Uint32Array, with `before` as its strict comparison. */
class LibstdcxxSort {
  constructor(
    private readonly items: Uint32Array,
    private readonly before: (a: number, b: number) => boolean,
  ) {}

  sort(): void {
    const n = this.items.length;
    if (n === 0) return;
    this.introsortLoop(0, n, 2 * floorLog2(n));
    this.finalInsertionSort(0, n);
  }

  private introsortLoop(first: number, last: number, depthLimit: number): void {
    while (last - first > INSERTION_SORT_THRESHOLD) {
      if (depthLimit === 0) {
        this.heapSort(first, last);
        return;
      }
      depthLimit--;
      const cut = this.partitionAroundMedian(first, last);
      this.introsortLoop(cut, last, depthLimit);
      last = cut;
    }
  }

  /** __unguarded_partition_pivot: median of first+1, middle, last-1 moved to first, then Hoare partition. */
  private partitionAroundMedian(first: number, last: number): number {
    const middle = first + Math.floor((last - first) / 2);
    this.moveMedianToFirst(first, first + 1, middle, last - 1);
    return this.unguardedPartition(first + 1, last, first);
  }

  private moveMedianToFirst(result: number, a: number, b: number, c: number): void {
    if (this.less(a, b)) {
      if (this.less(b, c)) this.swap(result, b);
      else if (this.less(a, c)) this.swap(result, c);
      else this.swap(result, a);
    } else if (this.less(a, c)) this.swap(result, a);
    else if (this.less(b, c)) this.swap(result, c);
    else this.swap(result, b);
  }

  private unguardedPartition(first: number, last: number, pivot: number): number {
    const end = last;
    for (;;) {
      while (first < end && this.less(first, pivot)) first++;
      last--;
      while (this.less(pivot, last)) last--;
      if (!(first < last)) return first;
      this.swap(first, last);
      first++;
    }
  }

  private finalInsertionSort(first: number, last: number): void {
    if (last - first > INSERTION_SORT_THRESHOLD) {
      this.insertionSort(first, first + INSERTION_SORT_THRESHOLD);
      for (let i = first + INSERTION_SORT_THRESHOLD; i < last; i++) this.unguardedLinearInsert(i, first);
    } else {
      this.insertionSort(first, last);
    }
  }

  private insertionSort(first: number, last: number): void {
    const items = this.items;
    for (let i = first + 1; i < last; i++) {
      if (this.less(i, first)) {
        const value = items[i];
        items.copyWithin(first + 1, first, i);
        items[first] = value;
      } else {
        this.unguardedLinearInsert(i, first);
      }
    }
  }

  /** Shifts items[at] left past every item it goes before; `floor` only bounds a NaN's run. */
  private unguardedLinearInsert(at: number, floor: number): void {
    const items = this.items;
    const value = items[at];
    let next = at - 1;
    while (next >= floor && this.before(value, items[next])) {
      items[at] = items[next];
      at = next;
      next--;
    }
    items[at] = value;
  }

  /** std::__partial_sort(first, last, last): make_heap, then sort_heap. */
  private heapSort(first: number, last: number): void {
    const length = last - first;
    if (length >= 2) {
      for (let parent = Math.floor((length - 2) / 2); ; parent--) {
        this.adjustHeap(first, parent, length, this.items[first + parent]);
        if (parent === 0) break;
      }
    }
    for (let end = last - 1; end - first >= 1; end--) {
      const value = this.items[end];
      this.items[end] = this.items[first];
      this.adjustHeap(first, 0, end - first, value);
    }
  }

  /** std::__adjust_heap: sift the hole down to a leaf, then push `value` back up. */
  private adjustHeap(first: number, hole: number, length: number, value: number): void {
    const items = this.items;
    const top = hole;
    let child = hole;
    while (child < Math.floor((length - 1) / 2)) {
      child = 2 * (child + 1);
      if (this.less(first + child, first + child - 1)) child--;
      items[first + hole] = items[first + child];
      hole = child;
    }
    if ((length & 1) === 0 && child === Math.floor((length - 2) / 2)) {
      child = 2 * (child + 1);
      items[first + hole] = items[first + child - 1];
      hole = child - 1;
    }
    let parent = Math.floor((hole - 1) / 2);
    while (hole > top && this.before(items[first + parent], value)) {
      items[first + hole] = items[first + parent];
      hole = parent;
      parent = Math.floor((hole - 1) / 2);
    }
    items[first + hole] = value;
  }

  private less(i: number, j: number): boolean {
    return this.before(this.items[i], this.items[j]);
  }

  private swap(i: number, j: number): void {
    const items = this.items;
    const held = items[i];
    items[i] = items[j];
    items[j] = held;
  }
}

function floorLog2(n: number): number {
  return 31 - Math.clz32(n);
}
