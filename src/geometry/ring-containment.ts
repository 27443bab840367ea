/**
 * GDAL 3.6's point tests against one ring, OGRLinearRing::isPointInRing (ray casting
 * towards +x, strict) and OGRLinearRing::isPointOnRingBoundary, with GDAL's arithmetic,
 * and the test OGRGeometryFactory::organizePolygons builds on them to decide whether a
 * ring lies inside another (RingProbe.liesInside).
 *
 * Both tests look at the edges between consecutive vertices only: an unclosed ring has no
 * closing edge, as in GDAL. A ring that keeps being queried gets an index of its edges, so
 * that a query visits only the edges near it: a Flatbush of the boxes of runs of
 * EDGES_PER_RUN consecutive edges (consecutive edges lie together, and one box per run
 * makes the index some thirty times cheaper to build than one box per edge). The edges of
 * the runs a query meets are tested with GDAL's arithmetic; the runs it skips hold only
 * edges GDAL's test would pass over:
 * - isPointInRing: an edge counts only if one end lies above the point's y and the other
 *   not, so its box spans that y; and an edge lying wholly left of the point never counts,
 *   because GDAL's crossing abscissa (x1·y2 − x2·y1) / (y2 − y1) then rounds to ≤ 0 (or
 *   NaN): with both x differences negative, the numerator's sign is the opposite of the
 *   denominator's, whatever the rounding. Only edges whose boxes meet the ray [x, +∞) × {y}
 *   can count.
 * - isPointOnRingBoundary: GDAL's collinearity test is exact-zero on rounded products, so
 *   it can only pass for a point within a few ulps of the edge: only edges whose boxes come
 *   within BOUNDARY_SLACK (relative to the coordinates' magnitude, far above any rounding)
 *   of the point can pass.
 */
import Flatbush from 'flatbush';
import type { StepPacer } from './ring-steps.ts';

/** Consecutive edges that share one box in a ring's edge index. */
const EDGES_PER_RUN = 32;
/** Rings shorter than this are always scanned: an index would not beat the scan. */
const MIN_INDEXED_VERTICES = 4 * EDGES_PER_RUN;
/** A ring is indexed once this many full scans of it have been spent: about what building its index costs. */
const SCANS_BEFORE_INDEX = 4;
/** How far (relative to the coordinates' magnitude) beyond an edge's box a point may lie and still pass GDAL's boundary test: 2^-30, some 2^22 ulps. */
const BOUNDARY_SLACK = 2 ** -30;

/** Point-in-ring and point-on-boundary queries against the rings of one record. */
export class RingProbe {
  private readonly scannedVertices: Float64Array;
  private readonly edgeIndexes = new Map<number, EdgeIndex>();

  constructor(
    private readonly xy: Float64Array,
    private readonly ringStarts: Uint32Array,
    private readonly pacer: StepPacer,
  ) {
    this.scannedVertices = new Float64Array(ringStarts.length - 1);
  }

  /**
   * organizePolygons' test (fast version, for a candidate other than the largest ring) of
   * whether ring `inner` lies inside ring `outer`: its first vertex, strictly inside; or,
   * when that vertex is on the outer's boundary, the first of its next vertices (repeats
   * skipped) that is not on the boundary decides; when all are, the first segment
   * midpoint that is not on the boundary does; when all are, it is not inside. `inner`
   * has at least 4 vertices (organizePolygons gets here only when every ring has).
   */
  liesInside(inner: number, outer: number): boolean {
    const first = this.ringStarts[inner];
    const count = this.ringStarts[inner + 1] - first;
    const x = (k: number) => this.xy[2 * (first + k)];
    const y = (k: number) => this.xy[2 * (first + k) + 1];
    if (!this.onBoundary(outer, x(0), y(0))) return this.contains(outer, x(0), y(0));
    for (let k = 1, previous = 0; k < count; k++) {
      if (x(k) === x(previous) && y(k) === y(previous)) continue;
      if (!this.onBoundary(outer, x(k), y(k))) return this.contains(outer, x(k), y(k));
      previous = k;
    }
    for (let k = 1, previous = 0; k < count; k++) {
      if (x(k) === x(previous) && y(k) === y(previous)) continue;
      const middleX = (x(k) + x(previous)) / 2;
      const middleY = (y(k) + y(previous)) / 2;
      if (!this.onBoundary(outer, middleX, middleY)) return this.contains(outer, middleX, middleY);
      previous = k;
    }
    return false;
  }

  /** OGRLinearRing::isPointInRing(point, FALSE): inside by the parity of crossings to the right; false on the boundary. */
  contains(ring: number, x: number, y: number): boolean {
    const first = this.ringStarts[ring];
    const end = this.ringStarts[ring + 1];
    if (end - first < 4) return false;
    const index = this.edgeIndexOf(ring);
    if (index === undefined) return crossingsAlong(this.xy, first, end, x, y, this.pacer) % 2 === 1;
    let crossings = 0;
    this.pacer.step();
    index.runs.search(x, y, Infinity, y, (run) => {
      const [from, to] = runEdges(index, run);
      crossings += crossingsAlong(this.xy, from, to + 1, x, y, this.pacer);
      return false;
    });
    return crossings % 2 === 1;
  }

  /** OGRLinearRing::isPointOnRingBoundary(point, FALSE). */
  onBoundary(ring: number, x: number, y: number): boolean {
    const first = this.ringStarts[ring];
    const end = this.ringStarts[ring + 1];
    if (end - first < 4) return false;
    const index = this.edgeIndexOf(ring);
    if (index === undefined) return anyEdgeThrough(this.xy, first, end, x, y, this.pacer);
    const slack = BOUNDARY_SLACK * (index.magnitude + Math.abs(x) + Math.abs(y));
    let found = false;
    this.pacer.step();
    index.runs.search(x - slack, y - slack, x + slack, y + slack, (run) => {
      const [from, to] = runEdges(index, run);
      found ||= anyEdgeThrough(this.xy, from, to + 1, x, y, this.pacer);
      return false;
    });
    return found;
  }

  /** The ring's edge index once it has been scanned often enough to pay for one. */
  private edgeIndexOf(ring: number): EdgeIndex | undefined {
    const existing = this.edgeIndexes.get(ring);
    if (existing !== undefined) return existing;
    const first = this.ringStarts[ring];
    const vertices = this.ringStarts[ring + 1] - first;
    if (vertices < MIN_INDEXED_VERTICES || this.scannedVertices[ring] < SCANS_BEFORE_INDEX * vertices) {
      this.scannedVertices[ring] += vertices;
      return undefined;
    }
    const built = buildEdgeIndex(this.xy, first, first + vertices, this.pacer);
    this.edgeIndexes.set(ring, built);
    return built;
  }
}

interface EdgeIndex {
  /** Item r is the run of edges from vertex first + r·EDGES_PER_RUN on (the ring's last edge ends at vertex last). */
  runs: Flatbush;
  first: number;
  last: number;
  /** The largest absolute coordinate of the ring. */
  magnitude: number;
}

/** The edges of a run, as the range of vertices they join: [from, to]. */
function runEdges(index: EdgeIndex, run: number): [number, number] {
  const from = index.first + run * EDGES_PER_RUN;
  return [from, Math.min(index.last, from + EDGES_PER_RUN)];
}

function buildEdgeIndex(xy: Float64Array, first: number, end: number, pacer: StepPacer): EdgeIndex {
  const last = end - 1;
  const runs = new Flatbush(Math.ceil((last - first) / EDGES_PER_RUN));
  const index: EdgeIndex = { runs, first, last, magnitude: 0 };
  for (let run = 0; run < runs.numItems; run++) {
    const [from, to] = runEdges(index, run);
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = from; i <= to; i++) {
      minX = Math.min(minX, xy[2 * i]);
      minY = Math.min(minY, xy[2 * i + 1]);
      maxX = Math.max(maxX, xy[2 * i]);
      maxY = Math.max(maxY, xy[2 * i + 1]);
      pacer.step();
    }
    runs.add(minX, minY, maxX, maxY);
    index.magnitude = Math.max(index.magnitude, -minX, -minY, maxX, maxY);
  }
  runs.finish();
  pacer.step(runs.numItems);
  return index;
}

/** isPointInRing's loop: the crossings of the ray from (x, y) towards +x with the edges joining vertices first … end - 1. */
function crossingsAlong(xy: Float64Array, first: number, end: number, x: number, y: number, pacer: StepPacer): number {
  let crossings = 0;
  for (let i = first; i < end - 1; i++) {
    if (crossesRightward(xy, i, x, y)) crossings++;
    pacer.step();
  }
  return crossings;
}

/** Whether the edge from vertex `from` to the next one crosses the ray, in isPointInRing's arithmetic. */
function crossesRightward(xy: Float64Array, from: number, x: number, y: number): boolean {
  const x2 = xy[2 * from] - x;
  const y2 = xy[2 * from + 1] - y;
  const x1 = xy[2 * from + 2] - x;
  const y1 = xy[2 * from + 3] - y;
  if ((y1 > 0 && y2 <= 0) || (y2 > 0 && y1 <= 0)) {
    return 0 < (x1 * y2 - x2 * y1) / (y2 - y1);
  }
  return false;
}

/** isPointOnRingBoundary's loop, over the edges joining vertices first … end - 1. */
function anyEdgeThrough(xy: Float64Array, first: number, end: number, x: number, y: number, pacer: StepPacer): boolean {
  for (let i = first; i < end - 1; i++) {
    pacer.step();
    if (edgeThrough(xy, i, x, y)) return true;
  }
  return false;
}

/** Whether (x, y) lies on the edge from vertex `from` to the next one, in isPointOnRingBoundary's arithmetic. */
function edgeThrough(xy: Float64Array, from: number, x: number, y: number): boolean {
  const dx2 = x - xy[2 * from];
  const dy2 = y - xy[2 * from + 1];
  const dx1 = x - xy[2 * from + 2];
  const dy1 = y - xy[2 * from + 3];
  if (dx1 * dy2 - dx2 * dy1 !== 0 || (dx1 === dx2 && dy1 === dy2)) return false;
  const segmentX = xy[2 * from + 2] - xy[2 * from];
  const segmentY = xy[2 * from + 3] - xy[2 * from + 1];
  const along = dx2 * segmentX + dy2 * segmentY;
  return along >= 0 && along <= segmentX * segmentX + segmentY * segmentY;
}
