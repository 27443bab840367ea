/**
 * The rings of one Polygon / PolygonZ / PolygonM record organized into polygons exactly as
 * GDAL/OGR 3.6 (Debian bookworm's 3.6.2) reads them: which rings are outer rings, which
 * outer ring each hole belongs to, and the order of the polygons.
 *
 * GDAL's rule (ogr/ogrsf_frmts/shape/shape2ogr.cpp SHPReadOGRObject, which hands the parts
 * to ogr/ogrgeometryfactory.cpp OGRGeometryFactory::organizePolygons with METHOD=ONLY_CCW;
 * the OGR_ORGANIZE_POLYGONS config option could override that method and is not read here):
 * 1. One part: a polygon of that ring, whatever it is.
 * 2. A ring counts when it has at least 4 vertices (closed or not: GDAL never closes a
 *    part). Counted rings get an area (|Green's sum|), a winding (the turn at the lowest,
 *    then rightmost vertex) and an envelope: measures.ts.
 * 3. Exactly one counted ring is clockwise: it is the outer ring of the only polygon, and
 *    every other part, wherever it lies and whatever it is, is a hole of it, in file order.
 * 4. Otherwise, if a ring does not count: every part is a polygon of its own, in file order.
 * 5. Otherwise the rings are sorted by descending area with std::sort (unstable: where
 *    equal areas land is libstdc++'s doing, reproduced in area-order.ts). The largest
 *    ring and every clockwise ring are outer rings. Each other (counter-clockwise) ring
 *    looks at the clockwise rings sorted before it, from the smallest up, for one whose
 *    envelope contains its own and which contains it: its first vertex strictly inside;
 *    if that vertex is on the boundary, the first of its next vertices, then of its segment
 *    midpoints, that is not on it decides (RingProbe.liesInside, containment.ts). The
 *    largest ring, if clockwise, needs only the envelope test. The first found takes the
 *    ring as a hole; if none does, the ring is an outer ring itself, counter-clockwise.
 * 6. The polygons come in the file order of their outer rings, each outer ring followed by
 *    its holes in file order. No ring is dropped.
 * Nesting follows: in an island in a lake in an island, each clockwise island is a polygon
 * and each lake a hole of the smallest island around it. Rings wound the wrong way are not
 * repaired: a counter-clockwise outer ring stays a polygon of its own, a clockwise hole
 * becomes an outer ring, and a lone clockwise ring among counter-clockwise ones makes them
 * all its holes (rule 3), even those around it. A counter-clockwise ring in a bay of the
 * largest ring, inside its envelope but not inside it, becomes its hole all the same.
 * Shapelib (shpopen.c, SHPReadObject) refuses a record with an empty part (part starts
 * must rise strictly, all below the vertex count), so GDAL never sees one; here an empty
 * part is simply a ring that does not count.
 *
 * Cost. GDAL tests each counter-clockwise ring against every larger one, and each test
 * scans the candidate's vertices: quadratic in rings and in vertices. Here the rings are
 * taken from the last sorted to the first, with the envelopes of the clockwise rings sorted
 * before the current one in a priority k-d tree (box-heap.ts) that offers those
 * containing the ring's envelope one at a time, last sorted first, without looking at the
 * others; the search stops at the first that takes the ring. That is GDAL's own scan with
 * the rings it would skip left out (counter-clockwise ones, and those whose envelope does not
 * contain the ring's: GDAL tests envelopes first and passes over them), so it stops at the
 * same ring after the same vertex tests: a lake deep in a nesting meets its own island only,
 * however many envelopes hold it. A ring tested again and again gets an index of its edges
 * (edge-index.ts): a boundary test looks at the edges near the point and stops at the
 * first through it, and a ray test opens only the chains of edges whose box holds the point,
 * however many edges the ray crosses. So n rings cost O(n log n) steps and a few passes over
 * the vertices, but for:
 * - the envelope search's bound for envelopes placed against it: O(n^(3/4)) per ring at
 *   worst (the worst arrangements found cost a few hundred steps);
 * - GDAL's rule itself: a ring whose envelope lies within the envelopes of k clockwise rings
 *   sorted after the one that takes it, rings that do not contain it (bays), is tested
 *   against all k, as in GDAL, and a hole whose vertices lie on their boundaries walks them
 *   for each; each test costs O(log) steps per vertex walked (or a scan of a ring too short
 *   to index);
 * - a ray test against a ring winding k times around the point (a spiral band): k chains
 *   hold the point, O(k) steps;
 * - runs of edges with coordinates outside ordinary magnitudes, which are tested edge by
 *   edge.
 */
import { ringsByDescendingArea } from './area-order.ts';
import { RingProbe } from './containment.ts';
import { BoxHeap, NO_ITEM } from './box-heap.ts';
import { measureRings, type RingMeasures } from './measures.ts';
import { noCheckpoint, StepPacer, type Checkpoint } from '../../cancellation/checkpoint.ts';

/** The rings of one Polygon record organized into polygons as GDAL 3.6 does it. */
export interface RingAssembly {
  /** Ring indices (positions among the record's parts), grouped polygon by polygon: each polygon's outer ring first, then its holes in GDAL's order. GDAL 3.6 drops no ring: every index appears once. */
  order: Uint32Array;
  /** Where each polygon starts in `order`, followed by order.length (length: polygon count + 1). */
  polygonStarts: Uint32Array;
}

/** Rings with fewer vertices make organizePolygons give up organizing (rule 4). */
const MIN_COUNTED_VERTICES = 4;
const NOT_A_HOLE = -1;

/**
 * xy: every vertex of the record, interleaved (x0, y0, x1, y1, …), as in the .shp.
 * ringStarts: the record's part starts, in vertices, followed by the vertex count (length: ring count + 1).
 * checkpoint: called at least every ~50,000 elementary steps; it throws to stop the work (cancellation).
 */
export function assembleRings(xy: Float64Array, ringStarts: Uint32Array, checkpoint: Checkpoint = noCheckpoint): RingAssembly {
  const ringCount = ringStarts.length - 1;
  if (ringCount <= 1) return everyRingAlone(ringCount);
  const pacer = new StepPacer(checkpoint);
  const measures = measureRings(xy, ringStarts, MIN_COUNTED_VERTICES, pacer);
  const census = windingCensus(ringStarts, measures);
  if (census.clockwiseCount === 1) return oneOuterRing(ringCount, census.lastClockwise);
  if (!census.allCounted || census.clockwiseCount === 0 || census.clockwiseCount === ringCount) {
    return everyRingAlone(ringCount);
  }
  return polygonsOf(enclosingOuterRings(xy, ringStarts, measures, pacer));
}

interface WindingCensus {
  /** Clockwise rings among those that count. */
  clockwiseCount: number;
  lastClockwise: number;
  /** Whether every ring has enough vertices to count. */
  allCounted: boolean;
}

function windingCensus(ringStarts: Uint32Array, measures: RingMeasures): WindingCensus {
  const census: WindingCensus = { clockwiseCount: 0, lastClockwise: -1, allCounted: true };
  for (let ring = 0; ring < measures.clockwise.length; ring++) {
    if (ringStarts[ring + 1] - ringStarts[ring] < MIN_COUNTED_VERTICES) {
      census.allCounted = false;
    } else if (measures.clockwise[ring] === 1) {
      census.clockwiseCount++;
      census.lastClockwise = ring;
    }
  }
  return census;
}

/**
 * Rule 5: for each ring, the outer ring it is a hole of, or NOT_A_HOLE. The rings are taken
 * from the last sorted to the first, so that the envelopes searched for a ring are exactly
 * those of the clockwise rings sorted before it: each clockwise ring leaves them when its
 * turn comes.
 */
function enclosingOuterRings(xy: Float64Array, ringStarts: Uint32Array, measures: RingMeasures, pacer: StepPacer): Int32Array {
  const byArea = ringsByDescendingArea(measures.area, pacer);
  const search = new OuterRingSearch(measures, byArea, new RingProbe(xy, ringStarts, pacer), pacer);
  const enclosing = new Int32Array(byArea.length).fill(NOT_A_HOLE);
  for (let rank = byArea.length - 1; rank >= 1; rank--) {
    const ring = byArea[rank];
    if (measures.clockwise[ring] === 1) search.dropLastOuterRing();
    else enclosing[ring] = search.outerRingAround(ring);
    pacer.step();
  }
  return enclosing;
}

/** Finds, for a counter-clockwise ring, the clockwise ring organizePolygons makes it a hole of. */
class OuterRingSearch {
  /** The clockwise rings in sorted order: item k of the envelope heap is outers[k]. */
  private readonly outers: Uint32Array;
  private readonly envelopes: BoxHeap;

  constructor(
    private readonly measures: RingMeasures,
    private readonly byArea: Uint32Array,
    private readonly probe: RingProbe,
    pacer: StepPacer,
  ) {
    this.outers = byArea.filter((ring) => measures.clockwise[ring] === 1);
    const boxes = new Float64Array(4 * this.outers.length);
    for (let item = 0; item < this.outers.length; item++) {
      for (let k = 0; k < 4; k++) boxes[4 * item + k] = measures.boxes[4 * this.outers[item] + k];
    }
    this.envelopes = new BoxHeap(boxes, pacer);
  }

  /** Leaves the clockwise ring sorted last among those left out of the searches that follow (they are for rings sorted before it). */
  dropLastOuterRing(): void {
    this.envelopes.removeHighest();
  }

  /**
   * GDAL scans the rings sorted before this one from the last back, skipping those that are
   * not clockwise or whose envelope does not contain this ring's, and stops at the first
   * that passes the vertex test (the largest ring passes without it). The envelope heap
   * holds the clockwise rings sorted before this one and offers exactly those whose
   * envelope contains this ring's, last sorted first: the same scan without the skipped rings.
   */
  outerRingAround(ring: number): number {
    const at = 4 * ring;
    const boxes = this.measures.boxes;
    this.envelopes.search(boxes[at], boxes[at + 1], boxes[at + 2], boxes[at + 3]);
    for (let item = this.envelopes.nextContaining(); item !== NO_ITEM; item = this.envelopes.nextContaining()) {
      if (this.takes(this.outers[item], ring)) return this.outers[item];
    }
    return NOT_A_HOLE;
  }

  /** Whether the clockwise ring `outer` takes `ring` as a hole (the largest ring needs no vertex test). */
  private takes(outer: number, ring: number): boolean {
    return outer === this.byArea[0] || this.probe.liesInside(ring, outer);
  }
}

/** Rule 6: outer rings in file order, each followed by its holes in file order. */
function polygonsOf(enclosing: Int32Array): RingAssembly {
  const ringCount = enclosing.length;
  const holeCounts = new Uint32Array(ringCount);
  let polygonCount = 0;
  for (const outer of enclosing) {
    if (outer === NOT_A_HOLE) polygonCount++;
    else holeCounts[outer]++;
  }
  const order = new Uint32Array(ringCount);
  const polygonStarts = new Uint32Array(polygonCount + 1);
  const nextHoleSlot = new Uint32Array(ringCount);
  for (let ring = 0, polygon = 0, at = 0; ring < ringCount; ring++) {
    if (enclosing[ring] !== NOT_A_HOLE) continue;
    polygonStarts[polygon++] = at;
    order[at] = ring;
    nextHoleSlot[ring] = at + 1;
    at += 1 + holeCounts[ring];
  }
  polygonStarts[polygonCount] = ringCount;
  for (let ring = 0; ring < ringCount; ring++) {
    const outer = enclosing[ring];
    if (outer !== NOT_A_HOLE) order[nextHoleSlot[outer]++] = ring;
  }
  return { order, polygonStarts };
}

/** Rule 3: the one clockwise ring, then every other ring as its holes, in file order. */
function oneOuterRing(ringCount: number, outer: number): RingAssembly {
  const order = new Uint32Array(ringCount);
  order[0] = outer;
  for (let ring = 0, at = 1; ring < ringCount; ring++) if (ring !== outer) order[at++] = ring;
  return { order, polygonStarts: Uint32Array.of(0, ringCount) };
}

/** Rules 1 and 4, and records whose rings are all outer rings: one polygon per ring, in file order. */
function everyRingAlone(ringCount: number): RingAssembly {
  const order = new Uint32Array(ringCount);
  const polygonStarts = new Uint32Array(ringCount + 1);
  for (let ring = 0; ring <= ringCount; ring++) {
    if (ring < ringCount) order[ring] = ring;
    polygonStarts[ring] = ring;
  }
  return { order, polygonStarts };
}
