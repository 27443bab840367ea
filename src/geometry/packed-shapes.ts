/**
 * Many shapes as one set of typed arrays. A list of shapes then crosses between threads as
 * five buffers whatever its length (each shape's own buffers in a transfer list cost the
 * sending thread time that grows with the square of their number: 100,000 features stalled
 * the event loop for seconds), and a picture of a million features keeps five arrays alive
 * instead of millions of small ones, which the garbage collector would copy over and over.
 * Unpacking makes views, not copies.
 */
import type { Shape, ShapeKind } from './shape.ts';
import type { BBox } from './types.ts';

export interface PackedShapes {
  /** Each shape's kind, as KINDS numbers it. */
  kinds: Uint8Array;
  /** Every shape's vertices, one shape after another. */
  xy: Float64Array;
  /** Every shape's `parts`, as the shape holds them (from 0, its vertex count last), one after another. */
  parts: Uint32Array;
  /** Every shape's `polygons`, likewise (empty for points and lines). */
  polygons: Uint32Array;
  /** Where shape i ends in `xy` (in vertices), `parts` and `polygons`: three numbers a shape. */
  ends: Float64Array;
}

const KINDS: readonly ShapeKind[] = ['points', 'lines', 'polygons'];

/** Writes vertex (x, y) mapped into `out` at `at` and `at` + 1. */
export type VertexWriter = (x: number, y: number, out: Float64Array, at: number) => void;

const copyVertex: VertexWriter = (x, y, out, at) => {
  out[at] = x;
  out[at + 1] = y;
};

/** Shapes added one by one (each mapped as it is copied), packed at the end. */
export interface ShapePacker {
  /** Copies `shape` in, each vertex through `write`; the box of what was written. */
  add(shape: Shape, write?: VertexWriter): BBox;
  /** Takes the shape added last out again. */
  dropLast(): void;
  readonly count: number;
  finish(): PackedShapes;
}

/** A packer whose arrays start at the sizes given and double as they fill. */
export function shapePacker(expected: { shapes: number; vertices: number; parts: number; polygons: number } = { shapes: 64, vertices: 256, parts: 128, polygons: 64 }): ShapePacker {
  let kinds = new Uint8Array(Math.max(1, expected.shapes));
  let ends = new Float64Array(3 * Math.max(1, expected.shapes));
  let xy = new Float64Array(2 * Math.max(1, expected.vertices));
  let parts = new Uint32Array(Math.max(1, expected.parts));
  let polygons = new Uint32Array(Math.max(1, expected.polygons));
  let count = 0;
  let [vertexEnd, partsEnd, polygonsEnd] = [0, 0, 0];
  return {
    add(shape, write = copyVertex) {
      if (count === kinds.length) {
        kinds = grown(kinds, count + 1);
        ends = grown(ends, 3 * (count + 1));
      }
      xy = grown(xy, 2 * vertexEnd + shape.xy.length);
      parts = grown(parts, partsEnd + shape.parts.length);
      polygons = grown(polygons, polygonsEnd + shape.polygons.length);
      const box = { xmin: Infinity, ymin: Infinity, xmax: -Infinity, ymax: -Infinity };
      for (let i = 0, at = 2 * vertexEnd; i < shape.xy.length; i += 2, at += 2) {
        write(shape.xy[i], shape.xy[i + 1], xy, at);
        const x = xy[at];
        const y = xy[at + 1];
        if (x < box.xmin) box.xmin = x;
        if (x > box.xmax) box.xmax = x;
        if (y < box.ymin) box.ymin = y;
        if (y > box.ymax) box.ymax = y;
      }
      // Loops, not set(): a point's or a square's arrays are two numbers, and set() is a native call each.
      for (let i = 0; i < shape.parts.length; i++) parts[partsEnd + i] = shape.parts[i];
      for (let i = 0; i < shape.polygons.length; i++) polygons[polygonsEnd + i] = shape.polygons[i];
      kinds[count] = KINDS.indexOf(shape.kind);
      vertexEnd += shape.xy.length / 2;
      partsEnd += shape.parts.length;
      polygonsEnd += shape.polygons.length;
      ends[3 * count] = vertexEnd;
      ends[3 * count + 1] = partsEnd;
      ends[3 * count + 2] = polygonsEnd;
      count++;
      return box;
    },
    dropLast() {
      count--;
      [vertexEnd, partsEnd, polygonsEnd] = count === 0 ? [0, 0, 0] : ends.subarray(3 * count - 3, 3 * count);
    },
    get count() {
      return count;
    },
    finish: () => ({
      kinds: kinds.slice(0, count),
      xy: xy.slice(0, 2 * vertexEnd),
      parts: parts.slice(0, partsEnd),
      polygons: polygons.slice(0, polygonsEnd),
      ends: ends.slice(0, 3 * count),
    }),
  };
}

/** `array`, or a copy at least twice as long when it holds fewer than `length` elements. */
function grown<T extends Uint8Array | Uint32Array | Float64Array>(array: T, length: number): T {
  if (length <= array.length) return array;
  const copy = new (array.constructor as new (length: number) => T)(Math.max(length, 2 * array.length));
  copy.set(array);
  return copy;
}

export function packShapes(shapes: readonly Shape[]): PackedShapes {
  const expected = { shapes: shapes.length, vertices: 0, parts: 0, polygons: 0 };
  for (const shape of shapes) {
    expected.vertices += shape.xy.length / 2;
    expected.parts += shape.parts.length;
    expected.polygons += shape.polygons.length;
  }
  const packer = shapePacker(expected);
  for (const shape of shapes) packer.add(shape);
  return packer.finish();
}

export function packedCount(packed: PackedShapes): number {
  return packed.kinds.length;
}

export function packedKind(packed: PackedShapes, index: number): ShapeKind {
  return KINDS[packed.kinds[index]];
}

/** Where shape `index`'s vertices start and end in `packed.xy`, in vertices. */
export function vertexRange(packed: PackedShapes, index: number): [number, number] {
  return [index === 0 ? 0 : packed.ends[3 * index - 3], packed.ends[3 * index]];
}

/** The same shapes with every vertex mapped by `write` into a new array (the rest shared). */
export function mapPacked(packed: PackedShapes, write: VertexWriter): PackedShapes {
  const xy = new Float64Array(packed.xy.length);
  for (let i = 0; i < xy.length; i += 2) write(packed.xy[i], packed.xy[i + 1], xy, i);
  return { ...packed, xy };
}

/** The shapes, as views into `packed`'s arrays. */
export function unpackShapes(packed: PackedShapes): Shape[] {
  const shapes: Shape[] = new Array(packed.kinds.length);
  let vertices = 0;
  let parts = 0;
  let polygons = 0;
  for (let i = 0; i < shapes.length; i++) {
    const vertexEnd = packed.ends[3 * i];
    const partsEnd = packed.ends[3 * i + 1];
    const polygonsEnd = packed.ends[3 * i + 2];
    shapes[i] = {
      kind: KINDS[packed.kinds[i]],
      xy: packed.xy.subarray(2 * vertices, 2 * vertexEnd),
      parts: packed.parts.subarray(parts, partsEnd),
      polygons: packed.polygons.subarray(polygons, polygonsEnd),
    };
    vertices = vertexEnd;
    parts = partsEnd;
    polygons = polygonsEnd;
  }
  return shapes;
}

/** The buffers to move rather than copy when `packed` crosses to another thread. */
export function packedBuffers(packed: PackedShapes): ArrayBuffer[] {
  return [packed.kinds, packed.xy, packed.parts, packed.polygons, packed.ends].map((array) => array.buffer as ArrayBuffer);
}
