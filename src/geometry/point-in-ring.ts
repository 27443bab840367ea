/**
 * GDAL 3.6's tests of a point against the edges of a ring, with GDAL's arithmetic
 * (ogr/ogrlinearring.cpp, OGRLinearRing::isPointInRing and isPointOnRingBoundary), over a
 * range of consecutive edges: the edges joining vertices first … end − 1 of the interleaved xy.
 * The ring organiser (rings/) decides holes with them; /ogc's bbox test asks with the same
 * loop whether a box lies inside a polygon.
 */
import type { StepPacer } from '../cancellation/checkpoint.ts';

/** isPointInRing's loop: the crossings of the ray from (x, y) towards +x with the edges joining vertices first … end − 1. */
export function crossingsAlong(xy: Float64Array, first: number, end: number, x: number, y: number, pacer: StepPacer): number {
  let crossings = 0;
  for (let i = first; i < end - 1; i++) {
    if (crossesRightward(xy, i, x, y)) crossings++;
    pacer.step();
  }
  return crossings;
}

/** isPointOnRingBoundary's loop, over the edges joining vertices first … end − 1. */
export function anyEdgeThrough(xy: Float64Array, first: number, end: number, x: number, y: number, pacer: StepPacer): boolean {
  for (let i = first; i < end - 1; i++) {
    pacer.step();
    if (edgeThrough(xy, i, x, y)) return true;
  }
  return false;
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
