/**
 * Writes `.shp` and `.shx` files byte by byte from typed arrays: fast enough for records of
 * millions of vertices, and free to state anything a hostile file could (a header's
 * bounding box, non-finite coordinates, lengths that lie).
 */
import { writeFileSync } from 'node:fs';
import { ShapeType } from '../../src/shapefile/types.ts';

export interface RawRecord {
  /** Point, MultiPoint, PolyLine or Polygon. */
  shapeType: number;
  /** x0, y0, x1, y1, … */
  xy: Float64Array;
  /** Where each part starts (poly types); default one part. */
  parts?: number[];
  /** The record's bounding box as written; default the vertices'. */
  bbox?: [number, number, number, number];
}

export interface RawFileOptions {
  /** The header's bounding box as written; default the records'. */
  headerBBox?: [number, number, number, number];
  prj?: string;
}

/** Writes `base`.shp and `base`.shx; a null record is a Null shape. */
export function writeRawShapefile(base: string, shapeType: number, records: (RawRecord | null)[], options: RawFileOptions = {}): void {
  const contents = records.map((record) => (record ? recordContent(record) : nullContent()));
  const shpBytes = 100 + contents.reduce((sum, content) => sum + 8 + content.length, 0);
  const shp = new Uint8Array(shpBytes);
  const shx = new Uint8Array(100 + 8 * records.length);
  const bbox = options.headerBBox ?? boxOf(records.flatMap((record) => (record ? [record.xy] : [])));
  writeHeader(shp, shpBytes, shapeType, bbox);
  writeHeader(shx, shx.length, shapeType, bbox);
  let offset = 100;
  contents.forEach((content, i) => {
    const view = new DataView(shp.buffer, offset);
    view.setInt32(0, i + 1);
    view.setInt32(4, content.length / 2);
    shp.set(content, offset + 8);
    const entry = new DataView(shx.buffer, 100 + 8 * i);
    entry.setInt32(0, offset / 2);
    entry.setInt32(4, content.length / 2);
    offset += 8 + content.length;
  });
  writeFileSync(`${base}.shp`, shp);
  writeFileSync(`${base}.shx`, shx);
  if (options.prj) writeFileSync(`${base}.prj`, options.prj);
}

function writeHeader(bytes: Uint8Array, length: number, shapeType: number, [xmin, ymin, xmax, ymax]: number[]): void {
  const view = new DataView(bytes.buffer);
  view.setInt32(0, 9994);
  view.setInt32(24, length / 2);
  view.setInt32(28, 1000, true);
  view.setInt32(32, shapeType, true);
  [xmin, ymin, xmax, ymax].forEach((value, i) => view.setFloat64(36 + 8 * i, value, true));
}

function nullContent(): Uint8Array {
  return new Uint8Array(4);
}

function recordContent({ shapeType, xy, parts = [0], bbox }: RawRecord): Uint8Array {
  const points = xy.length / 2;
  const [xmin, ymin, xmax, ymax] = bbox ?? boxOf([xy]);
  if (shapeType === ShapeType.Point) {
    const content = new DataView(new ArrayBuffer(20));
    content.setInt32(0, shapeType, true);
    content.setFloat64(4, xy[0], true);
    content.setFloat64(12, xy[1], true);
    return new Uint8Array(content.buffer);
  }
  const isMultiPoint = shapeType === ShapeType.MultiPoint;
  const pointsOffset = isMultiPoint ? 40 : 44 + 4 * parts.length;
  const content = new DataView(new ArrayBuffer(pointsOffset + 16 * points));
  content.setInt32(0, shapeType, true);
  [xmin, ymin, xmax, ymax].forEach((value, i) => content.setFloat64(4 + 8 * i, value, true));
  if (isMultiPoint) {
    content.setInt32(36, points, true);
  } else {
    content.setInt32(36, parts.length, true);
    content.setInt32(40, points, true);
    parts.forEach((start, i) => content.setInt32(44 + 4 * i, start, true));
  }
  // x and y are little-endian doubles in a row, as a Float64Array holds them on every platform we run on.
  new Uint8Array(content.buffer).set(new Uint8Array(xy.buffer, xy.byteOffset, xy.byteLength), pointsOffset);
  return new Uint8Array(content.buffer);
}

function boxOf(arrays: Float64Array[]): [number, number, number, number] {
  let [xmin, ymin, xmax, ymax] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const xy of arrays) {
    for (let i = 0; i < xy.length; i += 2) {
      xmin = Math.min(xmin, xy[i]);
      xmax = Math.max(xmax, xy[i]);
      ymin = Math.min(ymin, xy[i + 1]);
      ymax = Math.max(ymax, xy[i + 1]);
    }
  }
  return [xmin, ymin, xmax, ymax];
}

/**
 * A closed ring of `vertices` around (cx, cy), clockwise (an outer ring in ESRI's rule);
 * `jagged` alternates the radius by that fraction from vertex to vertex, the costliest
 * shape to draw: no vertex lies near its neighbours.
 */
export function ringXY(cx: number, cy: number, radius: number, vertices: number, jagged = 0): Float64Array {
  const xy = new Float64Array(2 * (vertices + 1));
  for (let i = 0; i < vertices; i++) {
    const angle = (-2 * Math.PI * i) / vertices;
    const r = radius * (1 + (i % 2 === 0 ? jagged : -jagged));
    xy[2 * i] = cx + r * Math.cos(angle);
    xy[2 * i + 1] = cy + r * Math.sin(angle);
  }
  xy[2 * vertices] = xy[0];
  xy[2 * vertices + 1] = xy[1];
  return xy;
}
