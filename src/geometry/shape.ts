/**
 * Geometry as the drawing pipeline carries it: every vertex of a feature in one flat array
 * of interleaved coordinates, with its parts as offsets into it. A record of millions of
 * vertices is then three typed arrays (16 bytes a vertex) instead of millions of small
 * arrays, and moves between threads without being copied.
 */
import { arrayBytes, OBJECT_BYTES } from '../structures/byte-bounded-cache.ts';
import type { BBox } from './types.ts';

export type ShapeKind = 'points' | 'lines' | 'polygons';

export interface Shape {
  kind: ShapeKind;
  /** x0, y0, x1, y1, … */
  xy: Float64Array;
  /**
   * Where each part starts, in vertices, then the vertex count (length: parts + 1). A part
   * is a point of a points shape, a line of a lines shape, a ring of a polygons shape.
   */
  parts: Uint32Array;
  /**
   * Polygons only: where each polygon starts in `parts` (its outer ring, then its holes),
   * then the ring count (length: polygons + 1). Empty for other kinds.
   */
  polygons: Uint32Array;
}

const NO_POLYGONS = new Uint32Array(0);

/** The parts of a single point, and the polygons of a single ring: shared, as a layer holds millions of them (never written to). */
const ONE_PART = Uint32Array.of(0, 1);
export const ONE_POLYGON = ONE_PART;

export function pointsShape(xy: Float64Array): Shape {
  const count = xy.length / 2;
  if (count === 1) return { kind: 'points', xy, parts: ONE_PART, polygons: NO_POLYGONS };
  const parts = new Uint32Array(count + 1);
  for (let i = 0; i <= count; i++) parts[i] = i;
  return { kind: 'points', xy, parts, polygons: NO_POLYGONS };
}

export function linesShape(xy: Float64Array, parts: Uint32Array): Shape {
  return { kind: 'lines', xy, parts, polygons: NO_POLYGONS };
}

export function polygonsShape(xy: Float64Array, parts: Uint32Array, polygons: Uint32Array): Shape {
  return { kind: 'polygons', xy, parts, polygons };
}

export function vertexCount(shape: Shape): number {
  return shape.xy.length / 2;
}

/** How many children a shape has: its points, lines or polygons (docs/decisions.md, "Feature ids"). */
export function childCount(shape: Shape): number {
  return shape.kind === 'polygons' ? shape.polygons.length - 1 : shape.parts.length - 1;
}

/**
 * Child `c`: the c-th point, line or polygon (with its holes) as a shape of its own;
 * undefined when there is no such child. A single-part feature's child 0 is itself.
 */
export function childShape(shape: Shape, child: number): Shape | undefined {
  if (!Number.isInteger(child) || child < 0 || child >= childCount(shape)) return undefined;
  if (childCount(shape) === 1) return shape;
  const [firstPart, endPart] =
    shape.kind === 'polygons' ? [shape.polygons[child], shape.polygons[child + 1]] : [child, child + 1];
  const firstVertex = shape.parts[firstPart];
  const xy = shape.xy.slice(2 * firstVertex, 2 * shape.parts[endPart]);
  const parts = shape.parts.slice(firstPart, endPart + 1).map((start) => start - firstVertex);
  if (shape.kind === 'polygons') return polygonsShape(xy, parts, Uint32Array.of(0, endPart - firstPart));
  return shape.kind === 'lines' ? linesShape(xy, parts) : pointsShape(xy);
}

/** The bounding box of every vertex of `shapes` (only their coordinates are read); undefined when they have none. */
export function shapesBBox(shapes: readonly Pick<Shape, 'xy'>[]): BBox | undefined {
  let xmin = Infinity;
  let ymin = Infinity;
  let xmax = -Infinity;
  let ymax = -Infinity;
  for (const { xy } of shapes) {
    for (let i = 0; i < xy.length; i += 2) {
      const x = xy[i];
      const y = xy[i + 1];
      if (x < xmin) xmin = x;
      if (x > xmax) xmax = x;
      if (y < ymin) ymin = y;
      if (y > ymax) ymax = y;
    }
  }
  return xmin <= xmax ? { xmin, ymin, xmax, ymax } : undefined;
}

/** The same shape (sharing its parts) with every vertex mapped by `transform` into a new array. */
export function mapVertices(shape: Shape, transform: (x: number, y: number, out: Float64Array, at: number) => void): Shape {
  const xy = new Float64Array(shape.xy.length);
  for (let i = 0; i < xy.length; i += 2) transform(shape.xy[i], shape.xy[i + 1], xy, i);
  return { ...shape, xy };
}

/** Bytes a shape keeps alive (its record and the whole buffers of its arrays), for cache accounting. */
export function shapeBytes(shape: Shape): number {
  return OBJECT_BYTES + arrayBytes(shape.xy) + arrayBytes(shape.parts) + arrayBytes(shape.polygons);
}
