/**
 * A static tree of boxes (a bounding-volume hierarchy) that finds the items whose boxes meet
 * a query box: every one (a shapefile's records in a map's view or a tile, job-context/record-index.ts),
 * or the first that passes a test (a ring's edges near a point, geometry/rings/edge-index.ts).
 * Each node splits its items at the median of their centres along the longer side of the
 * centres' spread, so that nodes stay compact; the medians come from a linear-time selection
 * (nth-element.ts), so the tree is built in O(n log n) whatever the boxes. The centres are
 * kept in tree order beside the items, moved with them, so that each level of the build
 * reads them in order rather than at each item's place in the file. (Flatbush, which
 * sorts Hilbert values with a median-of-three quicksort, can be driven quadratic by boxes
 * placed to order; the boxes here come from the public.)
 */
import { placeNthInPlace } from './nth-element.ts';
import type { StepPacer } from '../cancellation/checkpoint.ts';

/** Items per leaf. */
const LEAF_ITEMS = 8;

export class BoxTree {
  /** The items in tree order: node n covers a range of it, halved at each level. */
  private readonly order: Uint32Array;
  /** Per node of the implicit binary tree (children of n: 2n + 1, 2n + 2): the box of its items. */
  private readonly nodeBoxes: Float64Array;
  /** The current search's box (minX, minY, maxX, maxY), and the (node, first, end) triples it has still to look at. */
  private readonly query = new Float64Array(4);
  private readonly pending: Int32Array;
  private pendingSize = 0;

  /**
   * boxes: minX, minY, maxX, maxY for each item, none of them NaN (a NaN box would hide
   * its node's other items from every search). `pacer` paces the build, and the searches
   * that are not given their own.
   */
  constructor(
    private readonly boxes: Float64Array,
    private readonly pacer: StepPacer,
  ) {
    const count = boxes.length / 4;
    const depth = Math.max(0, Math.ceil(Math.log2(count / LEAF_ITEMS)));
    this.order = new Uint32Array(count);
    // Item order[at]'s centre is (centreX[at], centreY[at]) throughout the build.
    const centreX = new Float64Array(count);
    const centreY = new Float64Array(count);
    for (let item = 0; item < count; item++) {
      this.order[item] = item;
      centreX[item] = (boxes[4 * item] + boxes[4 * item + 2]) / 2;
      centreY[item] = (boxes[4 * item + 1] + boxes[4 * item + 3]) / 2;
    }
    pacer.step(count);
    this.nodeBoxes = new Float64Array(4 * 2 ** (depth + 1));
    this.pending = new Int32Array(3 * (depth + 2));
    this.build(0, 0, count, centreX, centreY);
  }

  /** The bytes of its arrays (the boxes it was given not counted): what a cache that keeps it counts. */
  get bytes(): number {
    return this.order.byteLength + this.nodeBoxes.byteLength + this.pending.byteLength + this.query.byteLength;
  }

  /**
   * Calls `visit` with each item whose box meets [minX, maxX] × [minY, maxY] (edges
   * included), in tree order, until it returns true; returns whether it did. `visit` must not
   * search this tree itself: a search's state is the tree's.
   */
  search(minX: number, minY: number, maxX: number, maxY: number, visit: (item: number) => boolean | void, pacer = this.pacer): boolean {
    this.query.set([minX, minY, maxX, maxY]);
    this.pendingSize = 0;
    this.enter(0, 0, this.order.length);
    const pending = this.pending;
    while (this.pendingSize > 0) {
      const end = pending[--this.pendingSize];
      const first = pending[--this.pendingSize];
      const node = pending[--this.pendingSize];
      pacer.step();
      if (end - first <= LEAF_ITEMS) {
        for (let at = first; at < end; at++) {
          const item = this.order[at];
          if (this.meetsQuery(this.boxes, item) && visit(item) === true) return true;
        }
      } else {
        const middle = first + ((end - first) >> 1);
        this.enter(2 * node + 2, middle, end);
        this.enter(2 * node + 1, first, middle);
      }
    }
    return false;
  }

  /** Keeps the node for the search if its box meets the query box. */
  private enter(node: number, first: number, end: number): void {
    if (first === end || !this.meetsQuery(this.nodeBoxes, node)) return;
    this.pending[this.pendingSize++] = node;
    this.pending[this.pendingSize++] = first;
    this.pending[this.pendingSize++] = end;
  }

  /** Whether box `index` of `boxes` meets the query box. */
  private meetsQuery(boxes: Float64Array, index: number): boolean {
    const at = 4 * index;
    const query = this.query;
    return boxes[at] <= query[2] && boxes[at + 1] <= query[3] && boxes[at + 2] >= query[0] && boxes[at + 3] >= query[1];
  }

  /** Arranges order[first … end − 1] (and their centres beside them) under `node` and sets the boxes of its subtree. */
  private build(node: number, first: number, end: number, centreX: Float64Array, centreY: Float64Array): void {
    if (end - first <= LEAF_ITEMS) {
      this.setLeafBox(node, first, end);
      return;
    }
    const middle = first + ((end - first) >> 1);
    if (this.spreadsMoreAlongX(first, end, centreX, centreY)) placeNthInPlace(centreX, this.order, centreY, first, end, middle, this.pacer);
    else placeNthInPlace(centreY, this.order, centreX, first, end, middle, this.pacer);
    this.build(2 * node + 1, first, middle, centreX, centreY);
    this.build(2 * node + 2, middle, end, centreX, centreY);
    const boxes = this.nodeBoxes;
    const at = 4 * node;
    const left = 4 * (2 * node + 1);
    const right = left + 4;
    boxes[at] = Math.min(boxes[left], boxes[right]);
    boxes[at + 1] = Math.min(boxes[left + 1], boxes[right + 1]);
    boxes[at + 2] = Math.max(boxes[left + 2], boxes[right + 2]);
    boxes[at + 3] = Math.max(boxes[left + 3], boxes[right + 3]);
  }

  /** Sets the box of leaf `node` to that of items order[first … end − 1] (an empty box for none). */
  private setLeafBox(node: number, first: number, end: number): void {
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let k = first; k < end; k++) {
      const item = 4 * this.order[k];
      minX = Math.min(minX, this.boxes[item]);
      minY = Math.min(minY, this.boxes[item + 1]);
      maxX = Math.max(maxX, this.boxes[item + 2]);
      maxY = Math.max(maxY, this.boxes[item + 3]);
    }
    const at = 4 * node;
    this.nodeBoxes[at] = minX;
    this.nodeBoxes[at + 1] = minY;
    this.nodeBoxes[at + 2] = maxX;
    this.nodeBoxes[at + 3] = maxY;
    this.pacer.step(end - first);
  }

  /** Whether the centres at first … end − 1 spread at least as far along x as along y. */
  private spreadsMoreAlongX(first: number, end: number, centreX: Float64Array, centreY: Float64Array): boolean {
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    for (let at = first; at < end; at++) {
      const x = centreX[at];
      const y = centreY[at];
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    this.pacer.step(end - first);
    return maxX - minX >= maxY - minY;
  }
}
