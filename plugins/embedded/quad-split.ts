/**
 * Cuts a large planar shape into pieces of at most a given number of vertices, halving its
 * box both ways until each piece is small: a view then clips only the few pieces it meets,
 * however detailed the continent it looks at. A shape is cut where a view looks, when one
 * first does, so the first map of a region pays for that region's pieces, not the world's;
 * the pieces, and their order, are those of cutting the whole shape at once.
 */
import type { MultiLineString, Polygon } from 'geojson';
import { boxesMeet, type Box } from './box.ts';
import { flatBox, positionCount, positionsOf, type FlatParts } from './flat-parts.ts';
import { clipToRectangle, type FlatShape } from './world-pixels.ts';

/** A planar shape with its bounding box, to skip it when out of view. */
export interface Shape extends FlatShape {
  bbox: Box;
}

/** A shape with its quarters, each cut the first time a view looks inside it (none: it is small enough). */
export interface SplitShape extends Shape {
  depth: number;
  quarters?: Quarter[] | null;
}

interface Quarter {
  extent: Box;
  /** What is left of the shape in `extent`: null when nothing, undefined until a view looks. */
  shape?: SplitShape | null;
}

/** Deep enough for any shape to reach a small piece; bounds the work on degenerate data. */
const MAX_DEPTH = 12;

/** `parts` are a polygon's rings (several outer rings allowed) or a set of lines; undefined when there are none. */
export function splitShape(kind: 'polygon' | 'line', parts: FlatParts): SplitShape | undefined {
  return shapeOf(kind, parts, 0);
}

/** Appends to `pieces` the pieces of `shape`, of at most `maxVertices` each, whose boxes meet `view`. */
export function piecesMeeting(shape: SplitShape, view: Box, maxVertices: number, pieces: Shape[]): void {
  if (!boxesMeet(shape.bbox, view)) return;
  const quarters = quartersOf(shape, maxVertices);
  if (quarters === null) {
    pieces.push(shape);
    return;
  }
  for (const quarter of quarters) {
    if (!boxesMeet(quarter.extent, view)) continue;
    if (quarter.shape === undefined) {
      const { xmin, ymin, xmax, ymax } = quarter.extent;
      quarter.shape = shapeOf(shape.kind, clipToRectangle(shape, [[xmin, ymin], [xmax, ymax]]), shape.depth + 1) ?? null;
      // Once every quarter is cut, the whole is never read again.
      if (quarters.every((cut) => cut.shape !== undefined)) shape.flat = NO_PARTS;
    }
    if (quarter.shape !== null) piecesMeeting(quarter.shape, view, maxVertices, pieces);
  }
}

/** The GeoJSON a piece stands for, made for the moment d3 writes it. */
export function geometryOf({ flat, kind }: Shape): Polygon | MultiLineString {
  const coordinates = positionsOf(flat);
  return kind === 'polygon' ? { type: 'Polygon', coordinates } : { type: 'MultiLineString', coordinates };
}

const NO_PARTS: FlatParts = { xy: new Float64Array(0), starts: new Uint32Array([0]) };

function shapeOf(kind: 'polygon' | 'line', flat: FlatParts, depth: number): SplitShape | undefined {
  const bbox = flatBox(flat);
  return bbox === undefined ? undefined : { kind, depth, flat, bbox };
}

function quartersOf(shape: SplitShape, maxVertices: number): Quarter[] | null {
  if (shape.quarters !== undefined) return shape.quarters;
  if (positionCount(shape.flat) <= maxVertices || shape.depth === MAX_DEPTH) return (shape.quarters = null);
  const { xmin, ymin, xmax, ymax } = shape.bbox;
  const xmid = (xmin + xmax) / 2;
  const ymid = (ymin + ymax) / 2;
  shape.quarters = [
    { extent: { xmin, ymin, xmax: xmid, ymax: ymid } },
    { extent: { xmin: xmid, ymin, xmax, ymax: ymid } },
    { extent: { xmin, ymin: ymid, xmax: xmid, ymax } },
    { extent: { xmin: xmid, ymin: ymid, xmax, ymax } },
  ];
  return shape.quarters;
}
