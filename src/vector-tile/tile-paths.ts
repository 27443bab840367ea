/**
 * Clipped lines and rings on the tile's integer grid (docs/tiles.md, "Vector tiles:
 * geometry"): rounded, with the repeats rounding makes left out (an MVT LineTo of length 0
 * draws nothing and some readers take it for a fault), and a ring's signed area by the
 * surveyor's formula, which MVT 2.1 tells exterior rings from holes by.
 */
import { MIN_RING_VERTICES } from '../geometry/simplify.ts';

/**
 * A line on the grid: its points rounded, each different from the one before. A line shorter
 * than a unit keeps one unit's length, as a drawing keeps a feature smaller than a pixel
 * visible: a tile with features is never empty. Undefined only for no points.
 */
export function gridLine(points: readonly number[][]): number[][] | undefined {
  const line = roundedWithoutRepeats(points);
  if (line.length === 1) line.push([line[0][0] + 1, line[0][1]]);
  return line.length >= 2 ? line : undefined;
}

/**
 * The smallest exterior ring on the grid, one unit square at the first clipped point: what a
 * polygon smaller than a unit (a sixteenth of a pixel) leaves, so that it is not lost from
 * the tile (docs/tiles.md, "Vector tiles: geometry"). Positive area, as an exterior ring's.
 */
export function unitRing(points: readonly number[][]): number[][] | undefined {
  if (points.length === 0) return undefined;
  const [x, y] = [Math.floor(points[0][0]), Math.floor(points[0][1])];
  return [
    [x, y],
    [x + 1, y],
    [x + 1, y + 1],
    [x, y + 1],
    [x, y],
  ];
}

/**
 * A ring on the grid, closed (its last point its first), as MVT 2.1 wants it: exterior
 * rings of positive area, holes of negative area (`exterior` says which this is), turned
 * round when they are not. Undefined when fewer than four points or no area are left.
 */
export function gridRing(points: readonly number[][], exterior: boolean): number[][] | undefined {
  const ring = roundedWithoutRepeats(points);
  while (ring.length > 1 && samePoint(ring[ring.length - 1], ring[0])) ring.pop();
  if (ring.length === 0) return undefined;
  ring.push(ring[0]);
  if (ring.length < MIN_RING_VERTICES) return undefined;
  const area = surveyorArea(ring);
  if (area === 0) return undefined;
  return area > 0 === exterior ? ring : ring.reverse();
}

/**
 * The signed area of a closed ring in tile units by the surveyor's formula, ½ Σ (xᵢ·yᵢ₊₁ −
 * xᵢ₊₁·yᵢ): positive for a ring that turns clockwise on the tile, whose y points down.
 */
export function surveyorArea(ring: readonly number[][]): number {
  let twice = 0;
  for (let i = 0; i < ring.length - 1; i++) twice += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
  return twice / 2;
}

function roundedWithoutRepeats(points: readonly number[][]): number[][] {
  const rounded: number[][] = [];
  for (const [x, y] of points) {
    const point = [Math.round(x), Math.round(y)];
    if (rounded.length === 0 || !samePoint(point, rounded[rounded.length - 1])) rounded.push(point);
  }
  return rounded;
}

function samePoint(a: readonly number[], b: readonly number[]): boolean {
  return a[0] === b[0] && a[1] === b[1];
}
