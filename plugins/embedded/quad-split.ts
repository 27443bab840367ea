/**
 * Cuts a large planar shape into pieces of at most a given number of vertices, halving its
 * box both ways until each piece is small: a view then clips only the few pieces it meets,
 * however detailed the continent it looks at.
 */
import type { MultiLineString, Polygon, Position } from 'geojson';
import { boxOf, type Box } from './box.ts';
import { clipToRectangle } from './world-pixels.ts';

/** A planar shape with its bounding box, to skip it when out of view. */
export interface Shape {
  geometry: Polygon | MultiLineString;
  bbox: Box;
}

/** Deep enough for any shape to reach a small piece; bounds the work on degenerate data. */
const MAX_DEPTH = 12;

/** `parts` are a polygon's rings (several outer rings allowed) or a set of lines. */
export function splitShape(kind: 'polygon' | 'line', parts: Position[][], maxVertices: number): Shape[] {
  const whole = shapeOf(kind, parts);
  return whole === undefined ? [] : split(whole, kind, maxVertices, 0);
}

function shapeOf(kind: 'polygon' | 'line', parts: Position[][]): Shape | undefined {
  if (parts.length === 0) return undefined;
  const geometry: Shape['geometry'] =
    kind === 'polygon' ? { type: 'Polygon', coordinates: parts } : { type: 'MultiLineString', coordinates: parts };
  return { geometry, bbox: boxOf(parts)! };
}

function split(shape: Shape, kind: 'polygon' | 'line', maxVertices: number, depth: number): Shape[] {
  const vertices = shape.geometry.coordinates.reduce((sum, part) => sum + part.length, 0);
  if (vertices <= maxVertices || depth === MAX_DEPTH) return [shape];
  const { xmin, ymin, xmax, ymax } = shape.bbox;
  const xmid = (xmin + xmax) / 2;
  const ymid = (ymin + ymax) / 2;
  const quarters: [[number, number], [number, number]][] = [
    [[xmin, ymin], [xmid, ymid]],
    [[xmid, ymin], [xmax, ymid]],
    [[xmin, ymid], [xmid, ymax]],
    [[xmid, ymid], [xmax, ymax]],
  ];
  return quarters.flatMap((extent) => {
    const piece = shapeOf(kind, clipToRectangle(shape.geometry, extent));
    return piece === undefined ? [] : split(piece, kind, maxVertices, depth + 1);
  });
}
