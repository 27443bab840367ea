/**
 * GDAL 3.6's point tests against the rings of a record, OGRLinearRing::isPointInRing (ray
 * casting towards +x, strict) and OGRLinearRing::isPointOnRingBoundary, with GDAL's
 * arithmetic (../point-in-ring.ts), and the test OGRGeometryFactory::organizePolygons builds
 * on them to decide whether a ring lies inside another (RingProbe.liesInside).
 *
 * Both tests look at the edges between consecutive vertices only: an unclosed ring has no
 * closing edge, as in GDAL. A ring is scanned edge by edge until it has been queried often
 * enough to pay for an index of its edges (edge-index.ts), which then answers with
 * GDAL's arithmetic on the edges near the point only.
 */
import { EDGES_PER_RUN, EdgeIndex } from './edge-index.ts';
import { anyEdgeThrough, crossingsAlong } from '../point-in-ring.ts';
import type { StepPacer } from '../../cancellation/checkpoint.ts';

/** Rings shorter than this are always scanned: an index would not beat the scan. */
const MIN_INDEXED_VERTICES = 4 * EDGES_PER_RUN;
/** A ring is indexed once this many full scans of it have been spent: about what building its index costs. */
const SCANS_BEFORE_INDEX = 4;

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
    const xy = this.xy;
    const first = this.ringStarts[inner];
    const end = this.ringStarts[inner + 1];
    if (!this.onBoundary(outer, xy[2 * first], xy[2 * first + 1])) return this.contains(outer, xy[2 * first], xy[2 * first + 1]);
    for (let i = first + 1, previous = first; i < end; i++) {
      const x = xy[2 * i];
      const y = xy[2 * i + 1];
      if (x === xy[2 * previous] && y === xy[2 * previous + 1]) continue;
      if (!this.onBoundary(outer, x, y)) return this.contains(outer, x, y);
      previous = i;
    }
    for (let i = first + 1, previous = first; i < end; i++) {
      const x = xy[2 * i];
      const y = xy[2 * i + 1];
      if (x === xy[2 * previous] && y === xy[2 * previous + 1]) continue;
      const middleX = (x + xy[2 * previous]) / 2;
      const middleY = (y + xy[2 * previous + 1]) / 2;
      if (!this.onBoundary(outer, middleX, middleY)) return this.contains(outer, middleX, middleY);
      previous = i;
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
    return index.contains(x, y);
  }

  /** OGRLinearRing::isPointOnRingBoundary(point, FALSE). */
  onBoundary(ring: number, x: number, y: number): boolean {
    const first = this.ringStarts[ring];
    const end = this.ringStarts[ring + 1];
    if (end - first < 4) return false;
    const index = this.edgeIndexOf(ring);
    if (index === undefined) return anyEdgeThrough(this.xy, first, end, x, y, this.pacer);
    return index.onBoundary(x, y);
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
    const built = new EdgeIndex(this.xy, first, first + vertices, this.pacer);
    this.edgeIndexes.set(ring, built);
    return built;
  }
}
