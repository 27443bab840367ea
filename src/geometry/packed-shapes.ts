/**
 * Many shapes as one set of typed arrays, for crossing between threads: a list of shapes
 * moves as five buffers whatever its length. (Each shape's own buffers in a transfer list
 * cost the sending thread time that grows with the square of their number: 100,000
 * features stalled the event loop for seconds.) Unpacking makes views, not copies.
 */
import type { Shape, ShapeKind } from './shape.ts';

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

export function packShapes(shapes: readonly Shape[]): PackedShapes {
  let vertices = 0;
  let parts = 0;
  let polygons = 0;
  for (const shape of shapes) {
    vertices += shape.xy.length / 2;
    parts += shape.parts.length;
    polygons += shape.polygons.length;
  }
  const packed: PackedShapes = {
    kinds: new Uint8Array(shapes.length),
    xy: new Float64Array(2 * vertices),
    parts: new Uint32Array(parts),
    polygons: new Uint32Array(polygons),
    ends: new Float64Array(3 * shapes.length),
  };
  vertices = parts = polygons = 0;
  shapes.forEach((shape, i) => {
    packed.kinds[i] = KINDS.indexOf(shape.kind);
    packed.xy.set(shape.xy, 2 * vertices);
    packed.parts.set(shape.parts, parts);
    packed.polygons.set(shape.polygons, polygons);
    vertices += shape.xy.length / 2;
    parts += shape.parts.length;
    polygons += shape.polygons.length;
    packed.ends.set([vertices, parts, polygons], 3 * i);
  });
  return packed;
}

/** The shapes, as views into `packed`'s arrays. */
export function unpackShapes(packed: PackedShapes): Shape[] {
  const shapes: Shape[] = new Array(packed.kinds.length);
  let vertices = 0;
  let parts = 0;
  let polygons = 0;
  for (let i = 0; i < shapes.length; i++) {
    const [vertexEnd, partsEnd, polygonsEnd] = packed.ends.subarray(3 * i, 3 * i + 3);
    shapes[i] = {
      kind: KINDS[packed.kinds[i]],
      xy: packed.xy.subarray(2 * vertices, 2 * vertexEnd),
      parts: packed.parts.subarray(parts, partsEnd),
      polygons: packed.polygons.subarray(polygons, polygonsEnd),
    };
    [vertices, parts, polygons] = [vertexEnd, partsEnd, polygonsEnd];
  }
  return shapes;
}

/** The buffers to move rather than copy when `packed` crosses to another thread. */
export function packedBuffers(packed: PackedShapes): ArrayBuffer[] {
  return [packed.kinds, packed.xy, packed.parts, packed.polygons, packed.ends].map((array) => array.buffer as ArrayBuffer);
}
