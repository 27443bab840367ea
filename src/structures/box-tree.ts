/**
 * A static tree of boxes (a bounding-volume hierarchy) that finds an item whose box meets a
 * query box and that passes a test, stopping at the first. Each node splits its items at the
 * median of their centres along the longer side of the centres' spread, so that nodes stay
 * compact; the medians come from a linear-time selection (nth-element.ts), so the tree
 * is built in O(n log n) whatever the boxes. (Flatbush, which sorts Hilbert values with a
 * median-of-three quicksort, can be driven quadratic by boxes placed to order; the boxes here
 * come from the public.)
 */
import { placeNth } from './nth-element.ts';
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

  /** boxes: minX, minY, maxX, maxY for each item. */
  constructor(
    private readonly boxes: Float64Array,
    private readonly pacer: StepPacer,
  ) {
    const count = boxes.length / 4;
    const depth = Math.max(0, Math.ceil(Math.log2(count / LEAF_ITEMS)));
    this.order = new Uint32Array(count).map((_, item) => item);
    this.nodeBoxes = new Float64Array(4 * 2 ** (depth + 1));
    this.pending = new Int32Array(3 * (depth + 2));
    const centres = [0, 1].map((axis) => new Float64Array(count).map((_, item) => (boxes[4 * item + axis] + boxes[4 * item + axis + 2]) / 2));
    this.build(0, 0, count, centres);
  }

  /** Whether some item whose box meets [minX, maxX] × [minY, maxY] passes `test`; stops at the first that does. */
  some(minX: number, minY: number, maxX: number, maxY: number, test: (item: number) => boolean): boolean {
    this.query.set([minX, minY, maxX, maxY]);
    this.pendingSize = 0;
    this.enter(0, 0, this.order.length);
    const pending = this.pending;
    while (this.pendingSize > 0) {
      const end = pending[--this.pendingSize];
      const first = pending[--this.pendingSize];
      const node = pending[--this.pendingSize];
      this.pacer.step();
      if (end - first <= LEAF_ITEMS) {
        for (let at = first; at < end; at++) {
          const item = this.order[at];
          if (this.meetsQuery(this.boxes, item) && test(item)) return true;
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

  /** Arranges order[first … end − 1] under `node` and sets the boxes of its subtree. */
  private build(node: number, first: number, end: number, centres: Float64Array[]): void {
    const at = 4 * node;
    if (end - first <= LEAF_ITEMS) {
      this.nodeBoxes.set([Infinity, Infinity, -Infinity, -Infinity], at);
      for (let k = first; k < end; k++) {
        const item = 4 * this.order[k];
        for (let side = 0; side < 2; side++) {
          this.nodeBoxes[at + side] = Math.min(this.nodeBoxes[at + side], this.boxes[item + side]);
          this.nodeBoxes[at + side + 2] = Math.max(this.nodeBoxes[at + side + 2], this.boxes[item + side + 2]);
        }
      }
      this.pacer.step(end - first);
      return;
    }
    const middle = first + ((end - first) >> 1);
    placeNth(this.order, first, end, middle, centres[this.longerAxis(first, end, centres)], this.pacer);
    this.build(2 * node + 1, first, middle, centres);
    this.build(2 * node + 2, middle, end, centres);
    const left = 4 * (2 * node + 1);
    const right = left + 4;
    for (let side = 0; side < 2; side++) {
      this.nodeBoxes[at + side] = Math.min(this.nodeBoxes[left + side], this.nodeBoxes[right + side]);
      this.nodeBoxes[at + side + 2] = Math.max(this.nodeBoxes[left + side + 2], this.nodeBoxes[right + side + 2]);
    }
  }

  /** 0 if the items' centres spread more along x than along y, else 1. */
  private longerAxis(first: number, end: number, centres: Float64Array[]): number {
    const spread = centres.map((values) => {
      let least = Infinity;
      let most = -Infinity;
      for (let k = first; k < end; k++) {
        least = Math.min(least, values[this.order[k]]);
        most = Math.max(most, values[this.order[k]]);
      }
      return most - least;
    });
    this.pacer.step(2 * (end - first));
    return spread[0] >= spread[1] ? 0 : 1;
  }
}
