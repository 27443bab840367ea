/**
 * The boxes of a record's clockwise rings, arranged to answer what organizePolygons
 * asks of them for each counter-clockwise ring: which of them contain this ring's box,
 * from the highest item (the ring sorted last) down, one at a time, so that the search can
 * stop at the first ring that takes the ring as a hole however many other boxes contain
 * it (deep nesting, many overlapping outer rings).
 *
 * A box contains another when its minX and minY are not above the other's and its maxX
 * and maxY not below: read as the point (−minX, −minY, maxX, maxY), it is at least the
 * other's point in all four coordinates. The points sit in a priority k-d tree: each node
 * holds the highest item of its subtree and the coordinate-wise maximum of the subtree's
 * points (its reach), and splits the other items at the median of one coordinate, the four
 * in turn. A subtree whose reach falls short of the query point in some coordinate holds no
 * box containing the query and is not entered. A search pops the nodes it may enter
 * highest item first (a binary heap of nodes); every item lies below its node's, so the
 * containing boxes come out in descending order.
 *
 * Cost, for m boxes. Building: a linear-time median split per node, O(m log m). Removing
 * the highest item: O(log m). A search pops, besides the containing boxes it yields, only
 * nodes whose item does not contain the query while their reach dominates it: their subtree
 * has points on both sides of one of the four hyperplanes bounding the query. For nested,
 * overlapping or disjoint boxes these are a few per level of the tree; whatever the
 * boxes, no more than the k-d tree bound for a query bounded by four hyperplanes in four
 * dimensions, O(m^(3/4)). Each pop costs O(log m).
 */
import { placeNth } from '../../structures/nth-element.ts';
import type { StepPacer } from '../../cancellation/checkpoint.ts';

const DIMENSIONS = 4;
/** What nextContaining returns when no other box contains the box. */
export const NO_ITEM = -1;
const NO_NODE = -1;

/** Items are numbered 0 … m − 1; a higher number is a higher item (sorted later). */
export class BoxHeap {
  /** Per item, four coordinates: −minX, −minY, maxX, maxY. */
  private readonly points: Float64Array;
  /** Per node of the implicit binary tree (children of n: 2n + 1, 2n + 2): its item, or NO_ITEM. */
  private readonly itemAt: Int32Array;
  /** Per node, four coordinates: the maximum over its subtree's points (−∞ for an empty subtree). */
  private readonly reach: Float64Array;
  /** The current search's box as a point, and the nodes it may still pop, as a binary max-heap on their items. */
  private readonly query = new Float64Array(DIMENSIONS);
  private readonly frontier: Int32Array;
  private frontierSize = 0;
  /** The node whose item the search yielded last, its subtree not yet entered (or NO_NODE). */
  private lastYielded = NO_NODE;

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
      pacer.step();
    }
    const nodes = 2 ** Math.ceil(Math.log2(count + 1)) - 1;
    this.itemAt = new Int32Array(nodes).fill(NO_ITEM);
    this.reach = new Float64Array(DIMENSIONS * nodes).fill(-Infinity);
    this.frontier = new Int32Array(nodes);
    new TreeFiller(this.points, this.itemAt, pacer).fill();
    for (let node = nodes - 1; node >= 0; node--) {
      this.updateReach(node);
      pacer.step();
    }
  }

  /** Removes the highest item left (the root's): each node along the way down takes the higher of its children's items. */
  removeHighest(): void {
    let node = 0;
    for (let child = this.higherChild(node); child !== NO_NODE; child = this.higherChild(node)) {
      this.itemAt[node] = this.itemAt[child];
      node = child;
    }
    this.itemAt[node] = NO_ITEM;
    for (; node > 0; node = (node - 1) >> 1) this.updateReach(node);
    this.updateReach(0);
    this.pacer.step(2 * Math.log2(this.itemAt.length + 1));
  }

  /** Starts a search for the items whose box contains the box [minX, maxX] × [minY, maxY]; nextContaining yields them. */
  search(minX: number, minY: number, maxX: number, maxY: number): void {
    this.query[0] = -minX;
    this.query[1] = -minY;
    this.query[2] = maxX;
    this.query[3] = maxY;
    this.frontierSize = 0;
    this.lastYielded = NO_NODE;
    this.enter(0);
  }

  /** The next item of the current search, from the highest down, or NO_ITEM when no other box contains the box. */
  nextContaining(): number {
    // The subtree below the item yielded last is opened only now: the first item yielded
    // usually ends the search.
    if (this.lastYielded !== NO_NODE) this.enterChildren(this.lastYielded);
    while (this.frontierSize > 0) {
      const node = this.popFrontier();
      this.pacer.step(Math.log2(this.frontierSize + 2));
      const item = this.itemAt[node];
      if (this.dominatesQuery(this.points, DIMENSIONS * item)) {
        this.lastYielded = node;
        return item;
      }
      this.enterChildren(node);
    }
    this.lastYielded = NO_NODE;
    return NO_ITEM;
  }

  private enterChildren(node: number): void {
    this.enter(2 * node + 1);
    this.enter(2 * node + 2);
  }

  /** Puts the node on the frontier if its subtree may hold a box containing the query. */
  private enter(node: number): void {
    if (node >= this.itemAt.length || this.itemAt[node] === NO_ITEM || !this.dominatesQuery(this.reach, DIMENSIONS * node)) return;
    let at = this.frontierSize++;
    for (let parent = (at - 1) >> 1; at > 0 && this.itemAt[this.frontier[parent]] < this.itemAt[node]; parent = (at - 1) >> 1) {
      this.frontier[at] = this.frontier[parent];
      at = parent;
    }
    this.frontier[at] = node;
  }

  /** Takes the frontier's top node (the one with the highest item) off it. */
  private popFrontier(): number {
    const top = this.frontier[0];
    const last = this.frontier[--this.frontierSize];
    let at = 0;
    for (let child = 1; child < this.frontierSize; child = 2 * at + 1) {
      if (child + 1 < this.frontierSize && this.itemAt[this.frontier[child + 1]] > this.itemAt[this.frontier[child]]) child++;
      if (this.itemAt[this.frontier[child]] < this.itemAt[last]) break;
      this.frontier[at] = this.frontier[child];
      at = child;
    }
    this.frontier[at] = last;
    return top;
  }

  /** Whether the four coordinates at values[at …] are at least the query's. */
  private dominatesQuery(values: Float64Array, at: number): boolean {
    const query = this.query;
    return values[at] >= query[0] && values[at + 1] >= query[1] && values[at + 2] >= query[2] && values[at + 3] >= query[3];
  }

  /** The child holding the higher item, or NO_NODE if neither holds one. */
  private higherChild(node: number): number {
    const left = 2 * node + 1;
    if (left >= this.itemAt.length) return NO_NODE;
    const leftItem = this.itemAt[left];
    const rightItem = this.itemAt[left + 1];
    if (leftItem === NO_ITEM && rightItem === NO_ITEM) return NO_NODE;
    return leftItem > rightItem ? left : left + 1;
  }

  /** The node's reach from its own point and its children's reaches. */
  private updateReach(node: number): void {
    const item = this.itemAt[node];
    const left = 2 * node + 1;
    const hasChildren = left < this.itemAt.length;
    for (let axis = 0; axis < DIMENSIONS; axis++) {
      let most = item === NO_ITEM ? -Infinity : this.points[DIMENSIONS * item + axis];
      if (hasChildren) {
        const leftReach = this.reach[DIMENSIONS * left + axis];
        const rightReach = this.reach[DIMENSIONS * (left + 1) + axis];
        if (leftReach > most) most = leftReach;
        if (rightReach > most) most = rightReach;
      }
      this.reach[DIMENSIONS * node + axis] = most;
    }
  }
}

/**
 * Fills a priority k-d tree: each node takes the highest item of its set, and the others are
 * split at the median of the node's axis (depth mod 4), the lower half to the left child.
 */
class TreeFiller {
  /** Per axis, per item: the coordinate the splits compare. */
  private readonly keys: Float64Array[];
  private readonly items: Uint32Array;

  constructor(
    points: Float64Array,
    private readonly itemAt: Int32Array,
    private readonly pacer: StepPacer,
  ) {
    const count = points.length / DIMENSIONS;
    this.keys = Array.from({ length: DIMENSIONS }, (_, axis) => new Float64Array(count).map((_, item) => points[DIMENSIONS * item + axis]));
    this.items = new Uint32Array(count).map((_, item) => item);
  }

  fill(): void {
    this.fillNode(0, 0, this.items.length, 0);
  }

  /** Fills `node` from items[first … end − 1]. */
  private fillNode(node: number, first: number, end: number, depth: number): void {
    if (first === end) return;
    const items = this.items;
    let highestAt = first;
    for (let at = first + 1; at < end; at++) {
      if (items[at] > items[highestAt]) highestAt = at;
      this.pacer.step();
    }
    this.itemAt[node] = items[highestAt];
    items[highestAt] = items[end - 1];
    const middle = first + ((end - 1 - first) >> 1);
    placeNth(items, first, end - 1, middle, this.keys[depth % DIMENSIONS], this.pacer);
    this.fillNode(2 * node + 1, first, middle, depth + 1);
    this.fillNode(2 * node + 2, middle, end - 1, depth + 1);
  }
}
