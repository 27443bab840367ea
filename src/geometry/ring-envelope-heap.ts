/**
 * The envelopes of a record's clockwise rings, arranged to answer what organizePolygons
 * asks of them for each counter-clockwise ring: which of them contain this ring's
 * envelope, from the last sorted (the highest item) down, one at a time, so that the
 * search can stop at the first ring that takes the ring as a hole however many other
 * envelopes contain it (deep nesting, many overlapping outer rings).
 *
 * An envelope contains another when its minX and minY are not above the other's and its
 * maxX and maxY not below: read as the point (−minX, −minY, maxX, maxY), it is at least the
 * other's point in all four coordinates. The points sit in a priority k-d tree: each node
 * holds the highest item of its subtree and the coordinate-wise maximum of the subtree's
 * points (its reach), and splits the other points at the median of one coordinate, the four
 * in turn. A subtree whose reach falls short of the query point in some coordinate holds no
 * envelope containing the query, and is not entered. A search pops the nodes it may enter
 * highest item first (a binary heap of nodes): every item lies below its node's, so the
 * containing envelopes come out in descending order.
 *
 * Cost. Building: four sorts, then O(m) per level of the tree, O(m log m) in all for m
 * envelopes; removing the highest item: O(log m). A search pops, besides the containing
 * envelopes it yields, only nodes whose subtree has points on both sides of one of the four
 * hyperplanes bounding the query (a node holding a non-containing point while its reach
 * dominates the query): O(log m) of them for nested or disjoint envelopes, and never more
 * than the k-d tree bound for a four-sided query, O(m^(3/4)), whatever the envelopes; each
 * pop costs O(log m).
 */
import type { StepPacer } from './ring-steps.ts';

const DIMENSIONS = 4;
const NO_ITEM = -1;

/** Items are numbered 0 … m − 1; a higher number is a higher item (sorted later). */
export class EnvelopeHeap {
  /** Per item, its envelope as the point (−minX, −minY, maxX, maxY). */
  private readonly points: Float64Array;
  /** Per node of the implicit binary tree (children of n: 2n + 1, 2n + 2): its item, or NO_ITEM. */
  private readonly itemAt: Int32Array;
  /** Per node, four coordinates: the maximum over its subtree's points (−∞ for an empty subtree). */
  private readonly reach: Float64Array;
  /** The nodes a search may still pop, as a binary max-heap on their items. */
  private readonly frontier: Int32Array;

  /** boxes: minX, minY, maxX, maxY for each item. */
  constructor(
    boxes: Float64Array,
    private readonly pacer: StepPacer,
  ) {
    const count = boxes.length / DIMENSIONS;
    this.points = new Float64Array(boxes.length);
    for (let at = 0; at < boxes.length; at += DIMENSIONS) {
      this.points[at] = -boxes[at];
      this.points[at + 1] = -boxes[at + 1];
      this.points[at + 2] = boxes[at + 2];
      this.points[at + 3] = boxes[at + 3];
    }
    const nodes = 2 ** Math.ceil(Math.log2(count + 1)) - 1;
    this.itemAt = new Int32Array(nodes).fill(NO_ITEM);
    this.reach = new Float64Array(DIMENSIONS * nodes).fill(-Infinity);
    this.frontier = new Int32Array(nodes);
    new TreeBuilder(this.points, this.itemAt, pacer).build(count);
    for (let node = nodes - 1; node >= 0; node--) this.updateReach(node);
    pacer.step(nodes);
  }

  /** Removes the highest item left (the root's); the nodes along the way up are refilled from below. */
  removeHighest(): void {
    let node = 0;
    for (;;) {
      const child = this.higherChild(node);
      if (child === undefined) break;
      this.itemAt[node] = this.itemAt[child];
      node = child;
    }
    this.itemAt[node] = NO_ITEM;
    for (; node > 0; node = (node - 1) >> 1) this.updateReach(node);
    this.updateReach(0);
    this.pacer.step(Math.log2(this.itemAt.length + 1));
  }

  /**
   * The highest item whose envelope contains the box [minX, maxX] × [minY, maxY] and that
   * `accepts`, or NO_ITEM (−1): `accepts` is asked about the containing items from the
   * highest down, and about no other.
   */
  highestContaining(minX: number, minY: number, maxX: number, maxY: number, accepts: (item: number) => boolean): number {
    const query = [-minX, -minY, maxX, maxY];
    let size = 0;
    const push = (node: number) => {
      if (node >= this.itemAt.length || !this.reaches(node, query)) return;
      let at = size++;
      // Sift up: a node's parent in the frontier has the higher item.
      while (at > 0 && this.itemAt[this.frontier[(at - 1) >> 1]] < this.itemAt[node]) {
        this.frontier[at] = this.frontier[(at - 1) >> 1];
        at = (at - 1) >> 1;
      }
      this.frontier[at] = node;
    };
    push(0);
    while (size > 0) {
      const node = this.frontier[0];
      const last = this.frontier[--size];
      this.siftDown(last, size);
      push(2 * node + 1);
      push(2 * node + 2);
      this.pacer.step();
      const item = this.itemAt[node];
      if (this.contains(item, query) && accepts(item)) return item;
    }
    return NO_ITEM;
  }

  private siftDown(node: number, size: number): void {
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && this.itemAt[this.frontier[child + 1]] > this.itemAt[this.frontier[child]]) child++;
      if (this.itemAt[this.frontier[child]] < this.itemAt[node]) break;
      this.frontier[at] = this.frontier[child];
      at = child;
    }
    if (size > 0) this.frontier[at] = node;
  }

  /** Whether the node holds an item and its subtree's maximum is at least the query point in every coordinate. */
  private reaches(node: number, query: number[]): boolean {
    if (this.itemAt[node] === NO_ITEM) return false;
    const at = DIMENSIONS * node;
    return this.reach[at] >= query[0] && this.reach[at + 1] >= query[1] && this.reach[at + 2] >= query[2] && this.reach[at + 3] >= query[3];
  }

  private contains(item: number, query: number[]): boolean {
    const at = DIMENSIONS * item;
    return this.points[at] >= query[0] && this.points[at + 1] >= query[1] && this.points[at + 2] >= query[2] && this.points[at + 3] >= query[3];
  }

  /** The child holding the higher item, if either holds one. */
  private higherChild(node: number): number | undefined {
    const left = 2 * node + 1;
    if (left >= this.itemAt.length) return undefined;
    const [leftItem, rightItem] = [this.itemAt[left], this.itemAt[left + 1]];
    if (leftItem === NO_ITEM && rightItem === NO_ITEM) return undefined;
    return leftItem > rightItem ? left : left + 1;
  }

  /** The node's reach from its own point and its children's reaches. */
  private updateReach(node: number): void {
    const at = DIMENSIONS * node;
    const item = this.itemAt[node];
    const left = 2 * node + 1;
    for (let axis = 0; axis < DIMENSIONS; axis++) {
      let most = item === NO_ITEM ? -Infinity : this.points[DIMENSIONS * item + axis];
      if (left < this.itemAt.length) {
        most = Math.max(most, this.reach[DIMENSIONS * left + axis], this.reach[DIMENSIONS * (left + 1) + axis]);
      }
      this.reach[at + axis] = most;
    }
  }
}

/**
 * Fills a priority k-d tree: each node takes the highest item of its set, and the others are
 * split at the median of the node's coordinate (depth mod 4), the lower half to the left.
 * The set of a node is kept as the same range in four arrays of items, each sorted by one
 * coordinate, and split by a stable partition of each: no sort after the first four.
 */
class TreeBuilder {
  private readonly byAxis: Uint32Array[];
  private readonly goesLeft: Uint8Array;
  private readonly scratch: Uint32Array;

  constructor(
    private readonly points: Float64Array,
    private readonly itemAt: Int32Array,
    private readonly pacer: StepPacer,
  ) {
    const count = points.length / DIMENSIONS;
    this.byAxis = Array.from({ length: DIMENSIONS }, (_, axis) => {
      const items = new Uint32Array(count);
      for (let item = 0; item < count; item++) items[item] = item;
      return items.sort((a, b) => points[DIMENSIONS * a + axis] - points[DIMENSIONS * b + axis]);
    });
    pacer.step(DIMENSIONS * count * Math.log2(count + 1));
    this.goesLeft = new Uint8Array(count);
    this.scratch = new Uint32Array(count);
  }

  build(count: number): void {
    this.fill(0, 0, count, 0);
  }

  /** Fills `node` from the items at positions first … end − 1 of every byAxis array. */
  private fill(node: number, first: number, end: number, depth: number): void {
    if (first === end) return;
    let highest = 0;
    for (let at = first; at < end; at++) highest = Math.max(highest, this.byAxis[0][at]);
    this.itemAt[node] = highest;
    const axisOrder = this.byAxis[depth % DIMENSIONS];
    const leftCount = (end - first - 1) >> 1;
    for (let at = first, placed = 0; at < end; at++) {
      const item = axisOrder[at];
      if (item === highest) continue;
      this.goesLeft[item] = placed++ < leftCount ? 1 : 0;
    }
    for (const items of this.byAxis) this.partition(items, first, end, highest);
    this.pacer.step((DIMENSIONS + 2) * (end - first));
    this.fill(2 * node + 1, first, first + leftCount, depth + 1);
    this.fill(2 * node + 2, first + leftCount, end - 1, depth + 1);
  }

  /** Stable partition of items[first … end − 1] without `highest`: left ones first, then right ones. */
  private partition(items: Uint32Array, first: number, end: number, highest: number): void {
    let left = first;
    let right = 0;
    for (let at = first; at < end; at++) {
      const item = items[at];
      if (item === highest) continue;
      if (this.goesLeft[item] === 1) items[left++] = item;
      else this.scratch[right++] = item;
    }
    items.set(this.scratch.subarray(0, right), left);
  }
}
