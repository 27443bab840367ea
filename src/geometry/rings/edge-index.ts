/**
 * An index of one ring's edges, for the rings a record's holes keep being tested against: it
 * answers GDAL's two point tests (../point-in-ring.ts), with GDAL's arithmetic, on the edges
 * near the point only. The edges are grouped in runs of EDGES_PER_RUN consecutive ones
 * (consecutive edges lie together, and one box per run makes the index some thirty times
 * cheaper to build than one box per edge), and the runs are indexed twice:
 *
 * - isPointOnRingBoundary: a tree of the runs' boxes (structures/box-tree.ts). GDAL's collinearity test is
 *   exact-zero on rounded products, so it can only pass for a point within a few ulps of the
 *   edge: only runs whose boxes come within BOUNDARY_SLACK (relative to the coordinates'
 *   magnitude, far above any rounding) of the point can hold an edge through it, and the
 *   search stops at the first such edge.
 * - isPointInRing (ray casting towards +x; inside when the crossings are odd): a binary tree
 *   over the runs in ring order, each node with the box of the chain of edges it covers. A
 *   chain whose box lies wholly above the point's y, or nowhere above it, crosses nothing:
 *   an edge counts only if one end lies above that y and the other not. A chain lying wholly
 *   left of the point crosses nothing either: GDAL's crossing abscissa
 *   (x1·y2 − x2·y1) / (y2 − y1) then rounds to ≤ 0 (or NaN), since with both x differences
 *   negative the numerator's sign is the opposite of the denominator's whatever the
 *   rounding. On a chain lying wholly right of the point (both x differences at least
 *   RIGHT_MARGIN) the abscissa is a weighted mean of the x differences, so each edge crosses
 *   exactly where the y condition holds, and the parity of the chain's crossings telescopes:
 *   each inner vertex ends two of its edges, so the crossings are odd exactly when one of the
 *   chain's two end vertices lies above the point's y and the other not. Only chains whose
 *   box holds the point are opened, down to the runs, whose edges are tested with GDAL's
 *   arithmetic: a few per level for an ordinary ring, however many edges the ray crosses (a
 *   comb whose teeth all cross it); a ring winding k times around the point has some k
 *   chains holding it.
 *
 * Both shortcuts rest on rounding, not on underflow or overflow, which can make GDAL find a
 * point on an edge a quarter unit away (an edge of subnormal length: every product rounds to
 * zero) or miss a crossing. They are taken only on runs whose coordinates are all ORDINARY:
 * then every coordinate difference within the ring is 0 or at least 2^-492, and the
 * products GDAL forms, with any point, stay far from underflow where they decide the outcome
 * (and from overflow, for points of ordinary size); no map's coordinates come near the
 * limits. A run with another coordinate is exceptional: it is tested edge by edge, for every
 * point.
 */
import { BoxTree } from '../../structures/box-tree.ts';
import { anyEdgeThrough, crossingsAlong } from '../point-in-ring.ts';
import type { StepPacer } from '../../cancellation/checkpoint.ts';

/** Consecutive edges that share one box. */
export const EDGES_PER_RUN = 32;
/** How far (relative to the coordinates' magnitude) beyond an edge's box a point may lie and still pass GDAL's boundary test: 2^-30, some 2^22 ulps. */
const BOUNDARY_SLACK = 2 ** -30;
/** Magnitudes of the coordinates on which the shortcuts hold (besides 0): about 3.6e-133 to 3.2e147. */
const ORDINARY = { least: 2 ** -440, most: 2 ** 490 };
/** How far right of the point a chain must lie for its crossings to telescope. */
const RIGHT_MARGIN = 2 ** -490;

export class EdgeIndex {
  /** The ring's last vertex. */
  private readonly last: number;
  /** Item r is run r: the edges from vertex first + r·EDGES_PER_RUN on, up to EDGES_PER_RUN of them (the last one ends at vertex last). */
  private readonly runs: BoxTree;
  /** The runs with a coordinate that is not ORDINARY, and a flag per run. */
  private readonly exceptionalRuns: number[] = [];
  private readonly exceptional: Uint8Array;
  /**
   * The chain tree: node 1 is the root, node n has children 2n and 2n + 1, node leafBase + r
   * is run r; per node, its box (inverted when empty) and whether all its coordinates are ORDINARY.
   */
  private readonly leafBase: number;
  private readonly chainBoxes: Float64Array;
  private readonly chainOrdinary: Uint8Array;
  /** The largest absolute coordinate of the ring. */
  private magnitude = 0;
  /** The point onBoundary is testing, for ordinaryRunThroughPoint. */
  private pointX = 0;
  private pointY = 0;
  private readonly ordinaryRunThroughPoint = (run: number) => this.exceptional[run] === 0 && this.runThrough(run, this.pointX, this.pointY);

  /** Indexes the edges joining vertices first … end − 1. */
  constructor(
    private readonly xy: Float64Array,
    private readonly first: number,
    end: number,
    private readonly pacer: StepPacer,
  ) {
    this.last = end - 1;
    const runCount = Math.ceil((this.last - first) / EDGES_PER_RUN);
    this.exceptional = new Uint8Array(runCount);
    this.leafBase = 2 ** Math.ceil(Math.log2(runCount));
    this.chainBoxes = new Float64Array(8 * this.leafBase);
    this.chainOrdinary = new Uint8Array(2 * this.leafBase);
    for (let run = 0; run < this.leafBase; run++) {
      this.chainBoxes.set(run < runCount ? this.measureRun(run) : EMPTY_BOX, 4 * (this.leafBase + run));
      this.chainOrdinary[this.leafBase + run] = run < runCount ? 1 - this.exceptional[run] : 1;
    }
    for (let node = this.leafBase - 1; node >= 1; node--) {
      this.joinChildren(node);
      pacer.step();
    }
    this.runs = new BoxTree(this.chainBoxes.subarray(4 * this.leafBase, 4 * (this.leafBase + runCount)), pacer);
  }

  /** OGRLinearRing::isPointOnRingBoundary(point, FALSE). */
  onBoundary(x: number, y: number): boolean {
    for (const run of this.exceptionalRuns) if (this.runThrough(run, x, y)) return true;
    const slack = BOUNDARY_SLACK * (this.magnitude + Math.abs(x) + Math.abs(y));
    this.pointX = x;
    this.pointY = y;
    // Stops at the first edge through the point: a hole traced along its outer ring's
    // boundary asks this for each of its vertices.
    return this.runs.search(x - slack, y - slack, x + slack, y + slack, this.ordinaryRunThroughPoint);
  }

  /** OGRLinearRing::isPointInRing(point, FALSE): whether the ray from (x, y) towards +x crosses the ring an odd number of times. */
  contains(x: number, y: number): boolean {
    const ordinaryPoint = Math.abs(x) <= ORDINARY.most && Math.abs(y) <= ORDINARY.most;
    return this.oddCrossings(1, 0, this.leafBase, x, y, ordinaryPoint);
  }

  /** Whether the edges of the chain of node `node` (runs firstRun … endRun − 1) cross the ray an odd number of times. */
  private oddCrossings(node: number, firstRun: number, endRun: number, x: number, y: number, ordinaryPoint: boolean): boolean {
    this.pacer.step();
    const at = 4 * node;
    const boxes = this.chainBoxes;
    if (boxes[at + 2] < x || boxes[at + 1] > y || boxes[at + 3] <= y) return false;
    const from = this.first + firstRun * EDGES_PER_RUN;
    const to = Math.min(this.last, this.first + endRun * EDGES_PER_RUN);
    if (ordinaryPoint && this.chainOrdinary[node] === 1 && boxes[at] - x >= RIGHT_MARGIN) {
      return this.xy[2 * from + 1] > y !== this.xy[2 * to + 1] > y;
    }
    if (node >= this.leafBase) return crossingsAlong(this.xy, from, to + 1, x, y, this.pacer) % 2 === 1;
    const middleRun = (firstRun + endRun) >> 1;
    return this.oddCrossings(2 * node, firstRun, middleRun, x, y, ordinaryPoint) !== this.oddCrossings(2 * node + 1, middleRun, endRun, x, y, ordinaryPoint);
  }

  /** Whether some edge of the run passes through the point, in GDAL's arithmetic. */
  private runThrough(run: number, x: number, y: number): boolean {
    const from = this.first + run * EDGES_PER_RUN;
    return anyEdgeThrough(this.xy, from, Math.min(this.last, from + EDGES_PER_RUN) + 1, x, y, this.pacer);
  }

  /** The box of a run's vertices (minX, minY, maxX, maxY); notes its magnitude and whether it is exceptional. */
  private measureRun(run: number): [number, number, number, number] {
    const from = this.first + run * EDGES_PER_RUN;
    const to = Math.min(this.last, from + EDGES_PER_RUN);
    const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    let ordinary = true;
    for (let i = from; i <= to; i++) {
      const x = this.xy[2 * i];
      const y = this.xy[2 * i + 1];
      box[0] = Math.min(box[0], x);
      box[1] = Math.min(box[1], y);
      box[2] = Math.max(box[2], x);
      box[3] = Math.max(box[3], y);
      ordinary &&= isOrdinary(x) && isOrdinary(y);
    }
    this.magnitude = Math.max(this.magnitude, -box[0], -box[1], box[2], box[3]);
    if (!ordinary) {
      this.exceptional[run] = 1;
      this.exceptionalRuns.push(run);
    }
    this.pacer.step(to - from + 1);
    return box;
  }

  private joinChildren(node: number): void {
    const boxes = this.chainBoxes;
    const at = 4 * node;
    const left = 2 * at;
    const right = left + 4;
    boxes[at] = Math.min(boxes[left], boxes[right]);
    boxes[at + 1] = Math.min(boxes[left + 1], boxes[right + 1]);
    boxes[at + 2] = Math.max(boxes[left + 2], boxes[right + 2]);
    boxes[at + 3] = Math.max(boxes[left + 3], boxes[right + 3]);
    this.chainOrdinary[node] = this.chainOrdinary[2 * node] & this.chainOrdinary[2 * node + 1];
  }
}

/** The box of no vertex: every test that could enter it fails. */
const EMPTY_BOX: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];

function isOrdinary(value: number): boolean {
  const size = Math.abs(value);
  return size === 0 || (size >= ORDINARY.least && size <= ORDINARY.most);
}
