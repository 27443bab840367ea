/**
 * A feature's shape in tile units (tile-units.ts) as the geometry of one MVT feature, in
 * geojson-vt's tile format (mvt-layer.ts writes it) (docs/tiles.md, "Vector tiles: geometry"):
 * clipped to the tile and its buffer by lineclip, then put on the integer grid. Points become
 * a MultiPoint of those in the buffered tile; lines the pieces they leave inside it; polygons
 * their rings clipped one by one, each polygon's exterior ring first and its holes after it.
 */
import { clipPolygon, clipPolyline } from 'lineclip';
import type { StepPacer } from '../cancellation/checkpoint.ts';
import type { Shape } from '../geometry/shape.ts';
import { gridLine, gridRing, unitRing } from './tile-paths.ts';
import { CLIP_BOX, outsideSides } from './tile-units.ts';

/** MVT's geometry types (GeomType) with the coordinates geojson-vt gives each. */
export type TileGeometry = { type: 1; geometry: number[][] } | { type: 2 | 3; geometry: number[][][] };

/** The geometry `shape` (in tile units) leaves on the tile; undefined when it leaves none. */
export function tileGeometry(shape: Shape, pacer: StepPacer): TileGeometry | undefined {
  switch (shape.kind) {
    case 'points': {
      const points = pointsInBox(shape, pacer);
      return points.length > 0 ? { type: 1, geometry: points } : undefined;
    }
    case 'lines': {
      const lines = clippedLines(shape, pacer);
      return lines.length > 0 ? { type: 2, geometry: lines } : undefined;
    }
    case 'polygons': {
      const rings = clippedRings(shape, pacer);
      return rings.length > 0 ? { type: 3, geometry: rings } : undefined;
    }
  }
}

/** A point is in the buffered tile when its place on the grid is, its edge included. */
function pointsInBox(shape: Shape, pacer: StepPacer): number[][] {
  const { xy } = shape;
  const points: number[][] = [];
  for (let i = 0; i < xy.length; i += 2) {
    pacer.step();
    const point = [Math.round(xy[i]), Math.round(xy[i + 1])];
    if (outsideSides(point[0], point[1]) === 0) points.push(point);
  }
  return points;
}

function clippedLines(shape: Shape, pacer: StepPacer): number[][][] {
  const lines: number[][][] = [];
  for (let part = 0; part < shape.parts.length - 1; part++) {
    const points = partPoints(shape, part, pacer);
    if (points.length < 2) continue;
    for (const piece of clipPolyline(points, CLIP_BOX)) {
      const line = gridLine(piece);
      if (line) lines.push(line);
    }
  }
  return lines;
}

/** A polygon whose exterior ring leaves nothing in the buffered tile is left out with its holes. */
function clippedRings(shape: Shape, pacer: StepPacer): number[][][] {
  const rings: number[][][] = [];
  for (let polygon = 0; polygon < shape.polygons.length - 1; polygon++) {
    const firstRing = shape.polygons[polygon];
    for (let part = firstRing; part < shape.polygons[polygon + 1]; part++) {
      const exterior = part === firstRing;
      const points = partPoints(shape, part, pacer);
      const clipped = points.length > 0 ? clipPolygon(points, CLIP_BOX) : [];
      // An exterior ring inside the tile but smaller than a unit keeps a unit square; a hole that small is nothing.
      const ring = gridRing(clipped, exterior) ?? (exterior ? unitRing(clipped) : undefined);
      if (ring) rings.push(ring);
      else if (exterior) break;
    }
  }
  return rings;
}

function partPoints(shape: Shape, part: number, pacer: StepPacer): number[][] {
  const { xy, parts } = shape;
  const points: number[][] = [];
  for (let i = parts[part]; i < parts[part + 1]; i++) {
    pacer.step();
    points.push([xy[2 * i], xy[2 * i + 1]]);
  }
  return points;
}
