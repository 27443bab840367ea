/**
 * Douglas–Peucker thinning of planar rings and lines (simplify-js in its high-quality mode,
 * i.e. without its radial pre-pass), for data simplified once per level of detail.
 */
import type { Position } from 'geojson';
import simplify from 'simplify-js';

/** A closed triangle: a ring with fewer positions encloses nothing. */
const MIN_RING_POSITIONS = 4;
const MIN_LINE_POSITIONS = 2;

/**
 * `parts` (a polygon's rings, or lines) without the vertices within `tolerance` of the line
 * Douglas–Peucker keeps. A ring thinned below a closed triangle is dropped rather than drawn
 * as a sliver: all of it lies within `tolerance` of one segment, so nothing of it would show.
 */
export function simplifyParts(parts: Position[][], kind: 'polygon' | 'line', tolerance: number): Position[][] {
  const minPositions = kind === 'polygon' ? MIN_RING_POSITIONS : MIN_LINE_POSITIONS;
  return parts
    .map((part) => simplify(part.map(([x, y]) => ({ x, y })), tolerance, true).map(({ x, y }) => [x, y]))
    .filter((part) => part.length >= minPositions);
}
