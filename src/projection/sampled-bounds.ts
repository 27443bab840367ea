/**
 * The box around a box's image under a transform between CRSs. A straight edge in one CRS
 * is a curve in the other, so the edges are sampled.
 */
import type { BBox } from '../geometry/types.ts';

export type PointTransform = (x: number, y: number) => ArrayLike<number>;

/** Points sampled along each edge: enough to follow the curve a projected edge makes in the other CRS. */
const EDGE_SAMPLES = 16;

/** Where along an edge of `box` its samples lie, 0 to 1 (one place for a point). */
export function edgeSteps(box: BBox): number[] {
  const samples = box.xmin === box.xmax && box.ymin === box.ymax ? 1 : EDGE_SAMPLES;
  return Array.from({ length: samples + 1 }, (_, i) => i / samples);
}

/**
 * The box around the sampled edges of `box` mapped by `transform`; undefined when a sample
 * cannot be placed (a non-finite result): a box left smaller than the truth would let the
 * caller skip what lies in it.
 */
export function sampledBounds(box: BBox, transform: PointTransform): BBox | undefined {
  const result: BBox = { xmin: Infinity, ymin: Infinity, xmax: -Infinity, ymax: -Infinity };
  let placed = true;
  const add = (x: number, y: number) => {
    const point = transform(x, y);
    const [tx, ty] = [point[0], point[1]];
    if (!Number.isFinite(tx) || !Number.isFinite(ty)) placed = false;
    result.xmin = Math.min(result.xmin, tx);
    result.xmax = Math.max(result.xmax, tx);
    result.ymin = Math.min(result.ymin, ty);
    result.ymax = Math.max(result.ymax, ty);
  };
  for (const t of edgeSteps(box)) {
    // Weighted sums rather than min + t * (max - min): the difference of two huge values can overflow.
    const along = (from: number, to: number) => from * (1 - t) + to * t;
    add(along(box.xmin, box.xmax), box.ymin);
    add(along(box.xmin, box.xmax), box.ymax);
    add(box.xmin, along(box.ymin, box.ymax));
    add(box.xmax, along(box.ymin, box.ymax));
  }
  return placed ? result : undefined;
}
