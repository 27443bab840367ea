/**
 * What GDAL 3.6 measures of each ring before organizing a polygon record, computed with
 * GDAL's own arithmetic, operation for operation, so that equal and nearly equal values
 * (areas that tie, windings decided by a rounding) come out exactly as GDAL's do:
 * OGRSimpleCurve::get_LinearArea, OGRLineString::isClockwise, OGRSimpleCurve::getEnvelope.
 * A ring is vertices first … end - 1 of the interleaved xy, closed or not: GDAL reads the
 * parts as they are and never closes them.
 */
import type { StepPacer } from '../../cancellation/checkpoint.ts';

/** OGRLineString::isClockwise compares coordinates to this tolerance around its pivot. */
const PIVOT_EPSILON = 1e-5;

/** Per ring: area, winding and bounding box, as GDAL computes them. */
export interface RingMeasures {
  area: Float64Array;
  clockwise: Uint8Array;
  /** minX, minY, maxX, maxY for each ring. */
  boxes: Float64Array;
}

/**
 * Measures every ring with at least `minVertices` vertices (the others keep zeros: GDAL
 * measures only the rings it can organize).
 */
export function measureRings(xy: Float64Array, ringStarts: Uint32Array, minVertices: number, pacer: StepPacer): RingMeasures {
  const ringCount = ringStarts.length - 1;
  const area = new Float64Array(ringCount);
  const clockwise = new Uint8Array(ringCount);
  const boxes = new Float64Array(4 * ringCount);
  for (let ring = 0; ring < ringCount; ring++) {
    const first = ringStarts[ring];
    const end = ringStarts[ring + 1];
    if (end - first < minVertices) continue;
    area[ring] = linearArea(xy, first, end, pacer);
    clockwise[ring] = isClockwise(xy, first, end, pacer) ? 1 : 0;
    writeBox(xy, first, end, boxes, 4 * ring, pacer);
  }
  return { area, clockwise, boxes };
}

/**
 * get_LinearArea: Green's formula over the vertices cyclically (an unclosed ring is
 * measured as if closed), absolute. Needs at least 2 vertices.
 */
function linearArea(xy: Float64Array, first: number, end: number, pacer: StepPacer): number {
  return 0.5 * Math.abs(greenSum(xy, first, end, pacer));
}

/**
 * isClockwise: the turn at the lowest, then rightmost vertex, ignoring the last vertex
 * (taken to repeat the first); when that vertex is repeated or its neighbours lie within
 * 1e-5 of it, the sign of Green's sum instead (zero counts as counter-clockwise).
 * Needs at least 2 vertices.
 */
function isClockwise(xy: Float64Array, first: number, end: number, pacer: StepPacer): boolean {
  const last = end - 1;
  let pivot = first;
  let useGreen = false;
  for (let i = first + 1; i < last; i++) {
    const x = xy[2 * i];
    const y = xy[2 * i + 1];
    if (y < xy[2 * pivot + 1] || (y === xy[2 * pivot + 1] && x > xy[2 * pivot])) {
      pivot = i;
      useGreen = false;
    } else if (y === xy[2 * pivot + 1] && x === xy[2 * pivot]) {
      useGreen = true;
    }
    pacer.step();
  }
  const before = pivot === first ? last - 1 : pivot - 1;
  const after = pivot + 1 >= last ? first : pivot + 1;
  const dx0 = xy[2 * before] - xy[2 * pivot];
  const dy0 = xy[2 * before + 1] - xy[2 * pivot + 1];
  const dx1 = xy[2 * after] - xy[2 * pivot];
  const dy1 = xy[2 * after + 1] - xy[2 * pivot + 1];
  if (nearPivot(dx0, dy0) || nearPivot(dx1, dy1)) useGreen = true;
  const cross = dx1 * dy0 - dx0 * dy1;
  if (!useGreen) {
    if (cross > 0) return false;
    if (cross < 0) return true;
  }
  return greenSum(xy, first, end, pacer) < 0;
}

function nearPivot(dx: number, dy: number): boolean {
  return Math.abs(dx) < PIVOT_EPSILON && Math.abs(dy) < PIVOT_EPSILON;
}

/** Twice the signed area (negative: clockwise), summed in GDAL's order: get_LinearArea and isClockwise's fallback share it. */
function greenSum(xy: Float64Array, first: number, end: number, pacer: StepPacer): number {
  const last = end - 1;
  let sum = xy[2 * first] * (xy[2 * first + 3] - xy[2 * last + 1]);
  for (let i = first + 1; i < last; i++) {
    sum += xy[2 * i] * (xy[2 * i + 3] - xy[2 * i - 1]);
    pacer.step();
  }
  return sum + xy[2 * last] * (xy[2 * first + 1] - xy[2 * last - 1]);
}

function writeBox(xy: Float64Array, first: number, end: number, boxes: Float64Array, at: number, pacer: StepPacer): void {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = first; i < end; i++) {
    const x = xy[2 * i];
    const y = xy[2 * i + 1];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    pacer.step();
  }
  boxes[at] = minX;
  boxes[at + 1] = minY;
  boxes[at + 2] = maxX;
  boxes[at + 3] = maxY;
}
