/**
 * The point inside a polygon farthest from its edges (Garcia-Castellanos & Lombardo's pole
 * of inaccessibility, found as Mapbox's polylabel does: subdivide square cells, keep those
 * that could still hold a farther point). A label there sits well inside the shape, where a
 * centroid may fall outside a crescent or into a bay.
 */
import type { Position } from 'geojson';
import { squaredSegmentDistance } from '../../src/geometry/simplify.ts';

export interface Pole {
  point: Position;
  /** Distance from the point to the nearest edge: the radius of the largest inscribed circle. */
  distance: number;
}

interface Cell {
  x: number;
  y: number;
  half: number;
  /** Signed distance from the centre to the polygon's edge (negative outside). */
  distance: number;
  /** The largest distance any point in the cell can have. */
  potential: number;
}

/** `rings` is the outer ring then holes, planar; `precision` is in the same units. */
export function poleOfInaccessibility(rings: Position[][], precision: number): Pole {
  let xmin = Infinity;
  let ymin = Infinity;
  let xmax = -Infinity;
  let ymax = -Infinity;
  for (const [x, y] of rings[0]) {
    xmin = Math.min(xmin, x);
    ymin = Math.min(ymin, y);
    xmax = Math.max(xmax, x);
    ymax = Math.max(ymax, y);
  }
  const size = Math.min(xmax - xmin, ymax - ymin);
  const centre = { point: [(xmin + xmax) / 2, (ymin + ymax) / 2], distance: 0 };
  if (size === 0) return centre;

  const cell = (x: number, y: number, half: number): Cell => {
    const distance = signedDistance(x, y, rings);
    return { x, y, half, distance, potential: distance + half * Math.SQRT2 };
  };
  const queue: Cell[] = [];
  for (let x = xmin; x < xmax; x += size) {
    for (let y = ymin; y < ymax; y += size) queue.push(cell(x + size / 2, y + size / 2, size / 2));
  }
  let best = cell((xmin + xmax) / 2, (ymin + ymax) / 2, 0);
  while (queue.length > 0) {
    // Few cells are ever open at once, so a linear scan for the most promising one is enough.
    let top = 0;
    for (let i = 1; i < queue.length; i++) if (queue[i].potential > queue[top].potential) top = i;
    const current = queue[top];
    queue[top] = queue[queue.length - 1];
    queue.pop();
    if (current.distance > best.distance) best = current;
    if (current.potential - best.distance <= precision) continue;
    const half = current.half / 2;
    queue.push(
      cell(current.x - half, current.y - half, half),
      cell(current.x + half, current.y - half, half),
      cell(current.x - half, current.y + half, half),
      cell(current.x + half, current.y + half, half),
    );
  }
  return { point: [best.x, best.y], distance: Math.max(0, best.distance) };
}

function signedDistance(x: number, y: number, rings: Position[][]): number {
  const point = [x, y];
  let inside = false;
  let squared = Infinity;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [ax, ay] = ring[i];
      const [bx, by] = ring[j];
      if (ay > y !== by > y && x < ((bx - ax) * (y - ay)) / (by - ay) + ax) inside = !inside;
      squared = Math.min(squared, squaredSegmentDistance(point, ring[i], ring[j]));
    }
  }
  return (inside ? 1 : -1) * Math.sqrt(squared);
}
