/**
 * Douglas–Peucker thinning of planar rings and lines, for data simplified once per level of
 * detail: simplify-js's high-quality mode (no radial pre-pass), step for step and to the same
 * numbers, over flat parts (flat-parts.ts) rather than an object per position.
 */
import { FlatPartsBuilder, partCount, type FlatParts } from './flat-parts.ts';

/** A closed triangle: a ring with fewer positions encloses nothing. */
const MIN_RING_POSITIONS = 4;
const MIN_LINE_POSITIONS = 2;

/**
 * `parts` (a polygon's rings, or lines) without the vertices within `tolerance` of the line
 * Douglas–Peucker keeps. A ring thinned below a closed triangle is dropped rather than drawn
 * as a sliver: all of it lies within `tolerance` of one segment, so nothing of it would show.
 */
export function simplifyParts(parts: FlatParts, kind: 'polygon' | 'line', tolerance: number): FlatParts {
  const minPositions = kind === 'polygon' ? MIN_RING_POSITIONS : MIN_LINE_POSITIONS;
  const { xy, starts } = parts;
  const sqTolerance = tolerance * tolerance;
  const kept = new FlatPartsBuilder();
  const keep = (i: number) => kept.push(xy[2 * i], xy[2 * i + 1]);
  for (let part = 0; part < partCount(parts); part++) {
    const first = starts[part];
    const last = starts[part + 1] - 1;
    if (last - first + 1 <= 2) {
      for (let i = first; i <= last; i++) keep(i);
    } else {
      keep(first);
      keepFarthest(xy, first, last, sqTolerance, keep);
      keep(last);
    }
    kept.endPart(minPositions);
  }
  return kept.done();
}

/** simplify-js's simplifyDPStep: keeps, in order, the positions between `first` and `last` farther than the tolerance from their line. */
function keepFarthest(xy: Float64Array, first: number, last: number, sqTolerance: number, keep: (i: number) => void): void {
  let maxSqDistance = sqTolerance;
  let index = -1;
  for (let i = first + 1; i < last; i++) {
    const sqDistance = sqSegmentDistance(xy, i, first, last);
    if (sqDistance > maxSqDistance) {
      index = i;
      maxSqDistance = sqDistance;
    }
  }
  if (maxSqDistance > sqTolerance) {
    if (index - first > 1) keepFarthest(xy, first, index, sqTolerance, keep);
    keep(index);
    if (last - index > 1) keepFarthest(xy, index, last, sqTolerance, keep);
  }
}

/** Squared distance from position p to the segment from a to b. */
function sqSegmentDistance(xy: Float64Array, p: number, a: number, b: number): number {
  let x = xy[2 * a];
  let y = xy[2 * a + 1];
  let dx = xy[2 * b] - x;
  let dy = xy[2 * b + 1] - y;
  if (dx !== 0 || dy !== 0) {
    const t = ((xy[2 * p] - x) * dx + (xy[2 * p + 1] - y) * dy) / (dx * dx + dy * dy);
    if (t > 1) {
      x = xy[2 * b];
      y = xy[2 * b + 1];
    } else if (t > 0) {
      x += dx * t;
      y += dy * t;
    }
  }
  dx = xy[2 * p] - x;
  dy = xy[2 * p + 1] - y;
  return dx * dx + dy * dy;
}
