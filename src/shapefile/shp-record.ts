/**
 * One `.shp` record, from its shape type on, into a flat Shape. Every count is checked
 * against the record's length before anything is read, coordinates must be finite, and the
 * rings of a polygon are organized as GDAL/OGR does it. Z and M values are not read: a Z
 * record whose optional M block is absent reads as well as one that has it, as in GDAL.
 */
import { BadRequestError, DamagedShapefileError } from '../errors.ts';
import { assembleRings } from '../geometry/assemble-rings.ts';
import { type Checkpoint } from '../geometry/simplify.ts';
import { linesShape, pointsShape, polygonsShape, type Shape } from '../geometry/shape.ts';
import { shapeTypeName } from './shp-header.ts';
import { ShapeType } from './types.ts';

/** Bytes before a record's content: record number and content length. */
export const RECORD_HEADER_BYTES = 8;
/** Shape type, bounding box, part and point counts: where a poly record's part list starts. */
const POLY_PARTS_OFFSET = 44;
const MULTIPOINT_POINTS_OFFSET = 40;

/** Where a record's coordinates lie, once its counts have been checked against its length. */
export interface RecordLayout {
  /** Base shape type: Point, MultiPoint, PolyLine or Polygon. */
  baseType: number;
  parts: number;
  points: number;
  /** Byte offset of the part list in the content (poly types). */
  partsOffset: number;
  /** Byte offset of the first x, y pair in the content. */
  pointsOffset: number;
}

export interface DecodeOptions {
  /** Most rings a polygon record may have; more is a 400. */
  maxRings: number;
  checkpoint: Checkpoint;
}

/** The base type of a Z or M type (PolygonZ → Polygon); MultiPatch stays itself. */
export function baseShapeType(shapeType: number): number {
  return shapeType === ShapeType.MultiPatch ? shapeType : shapeType % 10;
}

/**
 * Checks the record's counts against its length; null for a Null shape or one without
 * points. `content` starts at the record's shape type.
 */
export function recordLayout(content: DataView, headerShapeType: number, fid: number, file: string): RecordLayout | null {
  const bytes = content.byteLength;
  if (bytes < 4) throw new DamagedShapefileError(file, `record ${fid} is ${bytes} bytes long, too short for a shape type.`);
  const shapeType = content.getInt32(0, true);
  if (shapeType === ShapeType.Null) return null;
  if (shapeType !== headerShapeType) {
    throw new DamagedShapefileError(
      file,
      `record ${fid} has shape type ${shapeTypeName(shapeType)}, but the file's header says ${shapeTypeName(headerShapeType)}.`,
    );
  }
  const cutOff = (needed: number) =>
    new DamagedShapefileError(file, `record ${fid} is cut off: it needs ${needed} bytes and has ${bytes}.`);
  const baseType = baseShapeType(shapeType);
  if (baseType === ShapeType.Point) {
    if (bytes < 20) throw cutOff(20);
    return { baseType, parts: 1, points: 1, partsOffset: 4, pointsOffset: 4 };
  }
  if (baseType === ShapeType.MultiPoint) {
    if (bytes < MULTIPOINT_POINTS_OFFSET) throw cutOff(MULTIPOINT_POINTS_OFFSET);
    const points = content.getInt32(36, true);
    if (points < 0) throw new DamagedShapefileError(file, `record ${fid} has a negative point count.`);
    if (MULTIPOINT_POINTS_OFFSET + 16 * points > bytes) throw cutOff(MULTIPOINT_POINTS_OFFSET + 16 * points);
    return points === 0 ? null : { baseType, parts: points, points, partsOffset: 0, pointsOffset: MULTIPOINT_POINTS_OFFSET };
  }
  if (bytes < POLY_PARTS_OFFSET) throw cutOff(POLY_PARTS_OFFSET);
  const parts = content.getInt32(36, true);
  const points = content.getInt32(40, true);
  if (parts < 0 || points < 0) throw new DamagedShapefileError(file, `record ${fid} has a negative part or point count.`);
  const pointsOffset = POLY_PARTS_OFFSET + 4 * parts;
  if (pointsOffset + 16 * points > bytes) throw cutOff(pointsOffset + 16 * points);
  if (points === 0 || parts === 0) return null;
  return { baseType, parts, points, partsOffset: POLY_PARTS_OFFSET, pointsOffset };
}

/**
 * Decodes one record into a Shape; null for a Null shape or one without points. Throws
 * DamagedShapefileError naming `file` and the record for anything that cannot be right.
 * The header's shape type must be one shapeshot draws (not MultiPatch).
 */
export function decodeRecord(
  content: DataView,
  headerShapeType: number,
  fid: number,
  file: string,
  options: DecodeOptions,
): Shape | null {
  const layout = recordLayout(content, headerShapeType, fid, file);
  if (layout === null) return null;
  const xy = readCoordinates(content, layout, fid, file, options.checkpoint);
  if (layout.baseType === ShapeType.Point || layout.baseType === ShapeType.MultiPoint) return pointsShape(xy);
  const parts = readPartStarts(content, layout, fid, file);
  if (layout.baseType === ShapeType.PolyLine) return linesShape(xy, parts);
  if (layout.parts > options.maxRings) {
    throw new BadRequestError(
      `Feature ${fid} has ${layout.parts} rings; at most ${options.maxRings} (limits.maxRings) can be drawn.`,
    );
  }
  return organizedPolygons(xy, parts, options.checkpoint);
}

/** The x, y pairs, each checked to be finite. */
function readCoordinates(content: DataView, layout: RecordLayout, fid: number, file: string, checkpoint: Checkpoint): Float64Array {
  const xy = new Float64Array(2 * layout.points);
  for (let i = 0, offset = layout.pointsOffset; i < xy.length; i++, offset += 8) {
    const value = content.getFloat64(offset, true);
    if (!Number.isFinite(value)) {
      throw new DamagedShapefileError(file, `record ${fid} has a coordinate that is not a finite number (${value}) at point ${i >> 1}.`);
    }
    xy[i] = value;
    if ((i & 0xffff) === 0) checkpoint();
  }
  return xy;
}

/** Part starts in vertices, then the vertex count; they must rise from 0 within the points. */
function readPartStarts(content: DataView, layout: RecordLayout, fid: number, file: string): Uint32Array {
  const starts = new Uint32Array(layout.parts + 1);
  let previous = 0;
  for (let i = 0; i < layout.parts; i++) {
    const first = content.getInt32(layout.partsOffset + 4 * i, true);
    if (first < previous || first > layout.points || (i === 0 && first !== 0)) {
      throw new DamagedShapefileError(file, `record ${fid} has part ${i} starting at point ${first}, out of order or out of range.`);
    }
    starts[i] = previous = first;
  }
  starts[layout.parts] = layout.points;
  return starts;
}

/** The rings regrouped polygon by polygon, in the order GDAL/OGR gives them. */
function organizedPolygons(xy: Float64Array, rings: Uint32Array, checkpoint: Checkpoint): Shape {
  const ringCount = rings.length - 1;
  if (ringCount === 1) return polygonsShape(xy, rings, Uint32Array.of(0, 1));
  const { order, polygonStarts } = assembleRings(xy, rings, checkpoint);
  const vertices = order.reduce((sum, ring) => sum + rings[ring + 1] - rings[ring], 0);
  const ordered = new Float64Array(2 * vertices);
  const parts = new Uint32Array(order.length + 1);
  let written = 0;
  order.forEach((ring, i) => {
    parts[i] = written;
    ordered.set(xy.subarray(2 * rings[ring], 2 * rings[ring + 1]), 2 * written);
    written += rings[ring + 1] - rings[ring];
  });
  parts[order.length] = written;
  return polygonsShape(ordered, parts, polygonStarts);
}
