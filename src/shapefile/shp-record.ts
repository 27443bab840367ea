/**
 * One `.shp` record, from its shape type on, into a flat Shape, read as GDAL 3.6 reads it:
 * shapelib's shpopen.c SHPReadObject delimits and checks the record, shape2ogr.cpp
 * SHPReadOGRObject turns it into geometry. Every count is checked against the record's
 * length before anything is read, and the rings of a polygon are organized as GDAL/OGR
 * does it. Where shapelib refuses a record, GDAL shows the feature without geometry and
 * reports an error; here that is damage (500 naming the file and the record), while what
 * GDAL reads as no geometry at all is a null shape (404), as docs/decisions.md says.
 *
 * Z and M values are not read. A Z record needs its Z block (shapelib requires it); the M
 * block is optional for every type (shapelib reads it only when the length leaves room).
 */
import { BadRequestError, DamagedShapefileError } from '../errors.ts';
import { assembleRings } from '../geometry/rings/index.ts';
import { STEPS_PER_CHECKPOINT, type Checkpoint } from '../cancellation/checkpoint.ts';
import { linesShape, ONE_POLYGON, pointsShape, polygonsShape, type Shape } from '../geometry/shape.ts';
import type { BBox } from '../geometry/types.ts';
import { shapeTypeName } from './shp-header.ts';
import { ShapeType } from './types.ts';
import type { Span } from './byte-reader.ts';

/** Bytes before a record's content: record number and content length. */
export const RECORD_HEADER_BYTES = 8;
/** Where the record header holds the content's length, in 16-bit words (big-endian, as the file header's). */
const CONTENT_WORDS_OFFSET = 4;
/**
 * The content opens with the shape type (int32). A point's x and y follow it; a multipoint's
 * or poly record's bounding box (xmin, ymin, xmax, ymax) does, then its counts.
 */
const SHAPE_TYPE_BYTES = 4;
const POINT_XY_OFFSET = SHAPE_TYPE_BYTES;
const BOX_OFFSET = SHAPE_TYPE_BYTES;
const DOUBLE_BYTES = 8;
/** An x, y pair, and a point record (shape type, x, y). */
const XY_BYTES = 2 * DOUBLE_BYTES;
const POINT_BYTES = POINT_XY_OFFSET + XY_BYTES;
/** Shape type, bounding box, part and point counts: where a poly record's part list starts. */
const POLY_PARTS_OFFSET = 44;
const MULTIPOINT_POINTS_OFFSET = 40;
/** Where the counts are: a poly record's parts then points; a multipoint's points. */
const FIRST_COUNT_OFFSET = 36;
const POLY_POINTS_OFFSET = 40;
/** Counts and part starts are int32s. */
const INT_BYTES = 4;
/** A Z block after the x, y pairs: the z range (two doubles), then one z a vertex. */
const Z_RANGE_BYTES = 2 * DOUBLE_BYTES;
const Z_BYTES = DOUBLE_BYTES;
/** shapelib refuses a record that states more points or parts than these. */
const MAX_POINTS = 50_000_000;
const MAX_PARTS = 10_000_000;
const SHAPE_TYPES = new Set<number>(Object.values(ShapeType));

/** Where a record's coordinates lie, once its counts have been checked against its length. */
interface RecordLayout {
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
  /**
   * The fault to report when the record is shorter than its counts need, in place of "cut
   * off": the index's length may be the one to blame (shp-file.ts knows).
   */
  tooShort?: (needed: number) => DamagedShapefileError;
}

/** A record's content as the index delimits it, and the length its own `.shp` header states. */
export interface DelimitedRecord {
  content: Span;
  ownBytes: number;
}

/** The base type of a Z or M type (PolygonZ → Polygon); MultiPatch stays itself. */
export function baseShapeType(shapeType: number): number {
  return shapeType === ShapeType.MultiPatch ? shapeType : shapeType % 10;
}

/** Whether records of `shapeType` carry a Z block (MultiPatch aside). */
export function hasZ(shapeType: number): boolean {
  return shapeType > 10 && shapeType < 20;
}

/** How much of a record's content drawsGeometry() needs: the type, box and counts. */
export const RECORD_COUNTS_BYTES = POLY_PARTS_OFFSET;

/**
 * Whether a record, by its first RECORD_COUNTS_BYTES, has something to draw: not a null
 * shape, and (lines, polygons, multipoints) not without parts or points, as GDAL reads
 * such records as features without geometry. A record too short to say is left to decoding.
 */
export function drawsGeometry(head: Span): boolean {
  if (head.length < SHAPE_TYPE_BYTES) return true;
  const { view, at } = head;
  const base = baseShapeType(view.getInt32(at, true));
  if (base === ShapeType.Null) return false;
  if (base === ShapeType.Point) return true;
  if (base === ShapeType.MultiPoint) return head.length < MULTIPOINT_POINTS_OFFSET || view.getInt32(at + FIRST_COUNT_OFFSET, true) > 0;
  return head.length < POLY_PARTS_OFFSET || (view.getInt32(at + FIRST_COUNT_OFFSET, true) > 0 && view.getInt32(at + POLY_POINTS_OFFSET, true) > 0);
}

/**
 * The most vertices a record of `recordType` with `contentBytes` of content can hold: what
 * it holds besides its vertices (shape type, box and counts) aside, at the least bytes a
 * vertex takes: x and y, plus z when the file promises Z (its records must then have it).
 * An M block is optional in every type, and a Z record in a file without Z only takes more
 * bytes a vertex, so neither is counted. A point has one vertex whatever its length.
 */
export function maxVertices(recordType: number, contentBytes: number): number {
  const base = baseShapeType(recordType);
  if (base === ShapeType.Point) return 1;
  const fixedBytes = base === ShapeType.MultiPoint ? MULTIPOINT_POINTS_OFFSET : POLY_PARTS_OFFSET;
  const bytesPerVertex = hasZ(recordType) ? XY_BYTES + Z_BYTES : XY_BYTES;
  return Math.max(0, Math.floor((contentBytes - fixedBytes) / bytesPerVertex));
}

/**
 * Delimits a record as SHPReadObject does: it reads the index's length plus the 8-byte
 * record header at the index's offset and parses the record from those bytes, whatever
 * length the `.shp` record's own header states. The one exception is a read that comes up
 * exactly 8 bytes short at the end of the file (a `.shx` whose lengths count the record
 * header in): shapelib takes it when the record's own header accounts for exactly the bytes
 * read, and refuses the record otherwise. `read` holds what the file has from the record's
 * offset on, up to the index's length plus 8 bytes; `fileBytes` is the `.shp`'s size.
 */
export function delimitRecord(read: Span, offset: number, contentBytes: number, fid: number, file: string, fileBytes: number): DelimitedRecord {
  const wanted = RECORD_HEADER_BYTES + contentBytes;
  const ownBytes = read.length >= RECORD_HEADER_BYTES ? read.view.getInt32(read.at + CONTENT_WORDS_OFFSET) * 2 : NaN;
  const eightShort = read.length === wanted - RECORD_HEADER_BYTES && read.length >= RECORD_HEADER_BYTES;
  if (eightShort && ownBytes + RECORD_HEADER_BYTES !== read.length) {
    throw new DamagedShapefileError(
      file,
      `record ${fid} (${wanted} bytes from byte ${offset}, as the index lists it) runs 8 bytes past the end of the ` +
        `${fileBytes}-byte file, and its own header's length (${ownBytes} bytes) does not match the bytes there either.`,
    );
  }
  if (read.length !== wanted && !eightShort) {
    throw new DamagedShapefileError(
      file,
      `record ${fid} (${wanted} bytes from byte ${offset}) runs past the end of the ${fileBytes}-byte file.`,
    );
  }
  return { content: { view: read.view, at: read.at + RECORD_HEADER_BYTES, length: read.length - RECORD_HEADER_BYTES }, ownBytes };
}

/**
 * Decodes one record into a Shape; null for a Null shape or one without parts or points.
 * Throws DamagedShapefileError naming `file` and the record for anything that cannot be
 * right. `fileType` is the type the file's headers promise for every record; it must be one
 * shapeshot draws (not MultiPatch).
 */
export function decodeRecord(content: Span, fileType: number, fid: number, file: string, options: DecodeOptions): Shape | null {
  const layout = recordLayout(content, fileType, fid, file, options.tooShort);
  if (layout === null) return null;
  if (layout.baseType === ShapeType.Point || layout.baseType === ShapeType.MultiPoint) {
    return pointsShape(readCoordinates(content, layout, 0, fid, file, options.checkpoint));
  }
  const starts = readPartStarts(content, layout, fid, file);
  // SHPReadOGRObject: no parts is no geometry; parts without points, an empty one.
  if (layout.parts === 0 || layout.points === 0) return null;
  // SHPReadOGRObject makes a one-part line of every vertex of the record, whatever its part start.
  if (layout.baseType === ShapeType.PolyLine && layout.parts === 1) starts[0] = 0;
  if (layout.baseType === ShapeType.Polygon && layout.parts > options.maxRings) {
    throw new BadRequestError(`Feature ${fid} has ${layout.parts} rings; at most ${options.maxRings} (limits.maxRings) can be drawn.`);
  }
  // Vertices before the first part start belong to no part: GDAL leaves them out.
  const first = starts[0];
  const xy = readCoordinates(content, layout, first, fid, file, options.checkpoint);
  const parts = first === 0 ? starts : starts.map((start) => start - first);
  return layout.baseType === ShapeType.PolyLine ? linesShape(xy, parts) : organizedPolygons(xy, parts, fid, options.checkpoint);
}

/** What a record's own header bytes say, before it is decoded. */
export interface RecordFacts {
  /** undefined for a Null shape. */
  bbox: BBox | undefined;
  pointCount: number;
  /**
   * The separate pieces it can be drawn as: a line's or polygon's parts (rings), a
   * multipoint's points, one for a point; never more than its points.
   */
  partCount: number;
}

/**
 * A record's bounding box and counts from its own header bytes (RECORD_COUNTS_BYTES of
 * content are enough), so that a walk can skip a record, and a request count what it will
 * cost, before paying for decoding it; malformed ones count as null shapes.
 */
export function recordFacts(content: Span): RecordFacts {
  const nothing = { bbox: undefined, pointCount: 0, partCount: 0 };
  if (content.length < SHAPE_TYPE_BYTES) return nothing;
  const shapeType = content.view.getInt32(content.at + 0, true);
  if (shapeType === ShapeType.Null) return nothing;
  const base = shapeType % 10;
  if (base === ShapeType.Point) {
    if (content.length < POINT_BYTES) return nothing;
    const x = content.view.getFloat64(content.at + POINT_XY_OFFSET, true);
    const y = content.view.getFloat64(content.at + POINT_XY_OFFSET + DOUBLE_BYTES, true);
    return { bbox: { xmin: x, ymin: y, xmax: x, ymax: y }, pointCount: 1, partCount: 1 };
  }
  const isMultiPoint = base === ShapeType.MultiPoint;
  const countOffset = isMultiPoint ? FIRST_COUNT_OFFSET : POLY_POINTS_OFFSET;
  if (content.length < countOffset + INT_BYTES) return nothing;
  const pointCount = Math.max(0, content.view.getInt32(content.at + countOffset, true));
  return {
    bbox: {
      xmin: content.view.getFloat64(content.at + BOX_OFFSET, true),
      ymin: content.view.getFloat64(content.at + BOX_OFFSET + DOUBLE_BYTES, true),
      xmax: content.view.getFloat64(content.at + BOX_OFFSET + 2 * DOUBLE_BYTES, true),
      ymax: content.view.getFloat64(content.at + BOX_OFFSET + 3 * DOUBLE_BYTES, true),
    },
    pointCount,
    partCount: isMultiPoint ? pointCount : Math.min(pointCount, Math.max(0, content.view.getInt32(content.at + FIRST_COUNT_OFFSET, true))),
  };
}

/** Checks the record's type and counts against its length; null for a Null shape. */
function recordLayout(
  content: Span,
  fileType: number,
  fid: number,
  file: string,
  tooShort: DecodeOptions['tooShort'],
): RecordLayout | null {
  const bytes = content.length;
  if (bytes < SHAPE_TYPE_BYTES) throw new DamagedShapefileError(file, `record ${fid} is ${bytes} bytes long, too short for a shape type.`);
  const shapeType = content.view.getInt32(content.at, true);
  if (shapeType === ShapeType.Null) return null;
  checkRecordType(shapeType, fileType, fid, file);
  const baseType = baseShapeType(shapeType);
  if (baseType === ShapeType.Point) {
    const needed = POINT_BYTES + (hasZ(shapeType) ? Z_BYTES : 0);
    if (bytes < needed) throw tooShort?.(needed) ?? cutOff(shapeType, fileType, fid, file, needed, bytes);
    return { baseType, parts: 1, points: 1, partsOffset: POINT_XY_OFFSET, pointsOffset: POINT_XY_OFFSET };
  }
  if (baseType === ShapeType.MultiPoint) {
    if (bytes < MULTIPOINT_POINTS_OFFSET) throw tooShort?.(MULTIPOINT_POINTS_OFFSET) ?? cutOff(shapeType, fileType, fid, file, MULTIPOINT_POINTS_OFFSET, bytes);
    const points = content.view.getInt32(content.at + FIRST_COUNT_OFFSET, true);
    checkCounts(0, points, fid, file);
    const needed = MULTIPOINT_POINTS_OFFSET + XY_BYTES * points + zBlockBytes(shapeType, points);
    if (needed > bytes) throw tooShort?.(needed) ?? cutOff(shapeType, fileType, fid, file, needed, bytes);
    // SHPReadOGRObject: a multipoint without points is no geometry.
    return points === 0 ? null : { baseType, parts: points, points, partsOffset: 0, pointsOffset: MULTIPOINT_POINTS_OFFSET };
  }
  if (bytes < POLY_PARTS_OFFSET) throw tooShort?.(POLY_PARTS_OFFSET) ?? cutOff(shapeType, fileType, fid, file, POLY_PARTS_OFFSET, bytes);
  const parts = content.view.getInt32(content.at + FIRST_COUNT_OFFSET, true);
  const points = content.view.getInt32(content.at + POLY_POINTS_OFFSET, true);
  checkCounts(parts, points, fid, file);
  const pointsOffset = POLY_PARTS_OFFSET + INT_BYTES * parts;
  const needed = pointsOffset + XY_BYTES * points + zBlockBytes(shapeType, points);
  if (needed > bytes) throw tooShort?.(needed) ?? cutOff(shapeType, fileType, fid, file, needed, bytes);
  return { baseType, parts, points, partsOffset: POLY_PARTS_OFFSET, pointsOffset };
}

/** Bytes of a record's Z block, when its type has one. */
function zBlockBytes(shapeType: number, points: number): number {
  return hasZ(shapeType) ? Z_RANGE_BYTES + Z_BYTES * points : 0;
}

/**
 * A record must be of the file's base type. GDAL reads every record by its own type: where
 * it reads what we refuse, we depart from it on purpose. A record of an unknown type is no
 * geometry to GDAL, and one of another base type (a line in a polygon file) is a geometry
 * of the wrong type for its layer: both are damage here. A record without Z in a file whose
 * headers promise Z is damage too: the vertex budget of a request is computed from the
 * file's type before any record is read, and such a record would hold more vertices than
 * its length promises. Z and M otherwise come and go per record, as in GDAL.
 */
function checkRecordType(shapeType: number, fileType: number, fid: number, file: string): void {
  if (!SHAPE_TYPES.has(shapeType) || shapeType === ShapeType.MultiPatch) {
    throw new DamagedShapefileError(
      file,
      `record ${fid} has shape type ${shapeTypeName(shapeType)}, which a ${shapeTypeName(fileType)} file cannot hold.`,
    );
  }
  if (baseShapeType(shapeType) !== baseShapeType(fileType)) {
    throw new DamagedShapefileError(
      file,
      `record ${fid} has shape type ${shapeTypeName(shapeType)}, but the file's type is ${shapeTypeName(fileType)}.`,
    );
  }
  if (hasZ(fileType) && !hasZ(shapeType)) {
    throw new DamagedShapefileError(
      file,
      `record ${fid} has shape type ${shapeTypeName(shapeType)}, without the z values its file's type ${shapeTypeName(fileType)} promises.`,
    );
  }
}

/** A record shorter than its type and counts need; its type is named when it is not the file's. */
function cutOff(shapeType: number, fileType: number, fid: number, file: string, needed: number, bytes: number): DamagedShapefileError {
  const shortness = `it needs ${needed} bytes and has ${bytes}`;
  if (shapeType === fileType) return new DamagedShapefileError(file, `record ${fid} is cut off: ${shortness}.`);
  return new DamagedShapefileError(
    file,
    `record ${fid} has shape type ${shapeTypeName(shapeType)} where the file's header says ${shapeTypeName(fileType)}, ` +
      `and is cut off for that type: ${shortness}.`,
  );
}

/** shapelib reads counts as unsigned and refuses huge ones: a negative count is damage too. */
function checkCounts(parts: number, points: number, fid: number, file: string): void {
  if (parts < 0 || points < 0) throw new DamagedShapefileError(file, `record ${fid} has a negative part or point count.`);
  if (parts > MAX_PARTS || points > MAX_POINTS) {
    throw new DamagedShapefileError(file, `record ${fid} states ${parts} parts and ${points} points, more than GDAL reads in one record.`);
  }
}

/** The x, y pairs from vertex `first` on, each checked to be finite (docs/decisions.md: anything else is damage). */
function readCoordinates(
  content: Span,
  layout: RecordLayout,
  first: number,
  fid: number,
  file: string,
  checkpoint: Checkpoint,
): Float64Array {
  const xy = new Float64Array(2 * (layout.points - first));
  for (let i = 0, offset = layout.pointsOffset + XY_BYTES * first; i < xy.length; i++, offset += DOUBLE_BYTES) {
    const value = content.view.getFloat64(content.at + offset, true);
    if (!Number.isFinite(value)) {
      throw new DamagedShapefileError(
        file,
        `record ${fid} has a coordinate that is not a finite number (${value}) at point ${first + (i >> 1)}.`,
      );
    }
    xy[i] = value;
    if ((i & 0xffff) === 0) checkpoint();
  }
  return xy;
}

/**
 * Part starts in vertices, then the vertex count, checked as SHPReadObject checks them:
 * each within the vertices (0 when there are none) and each after the one before. The first
 * part need not start at vertex 0. shapelib refuses the record otherwise ("Corrupted .shp
 * file : shape N : panPartStart[i] = …"), and GDAL shows the feature without geometry.
 */
function readPartStarts(content: Span, layout: RecordLayout, fid: number, file: string): Uint32Array {
  const { parts, points } = layout;
  const starts = new Uint32Array(parts + 1);
  for (let i = 0; i < parts; i++) {
    const start = content.view.getInt32(content.at + layout.partsOffset + INT_BYTES * i, true);
    if (start < 0 || (points > 0 ? start >= points : start > 0)) {
      throw new DamagedShapefileError(file, `record ${fid} has part ${i} starting at point ${start}, outside its ${points} points.`);
    }
    if (i > 0 && start <= starts[i - 1]) {
      throw new DamagedShapefileError(
        file,
        `record ${fid} has part ${i} starting at point ${start}, not after part ${i - 1} (at point ${starts[i - 1]}).`,
      );
    }
    starts[i] = start;
  }
  starts[parts] = points;
  return starts;
}

/**
 * Elementary steps ring assembly may take: about n log n for any arrangement but two that
 * GDAL's rule itself makes costly (holes inside the envelopes of many outer rings that do
 * not contain them, and rings spiralling many times around their holes, each point test
 * then walking the spiral). Ordinary data takes a few dozen steps a vertex; past this
 * budget (about a second of work) the record is refused rather than organized.
 */
const ASSEMBLY_STEPS_PER_VERTEX = 100;
const ASSEMBLY_STEPS_AT_LEAST = 20_000_000;

/** The checkpoint, counting the steps assembleRings reports with it, and refusing past the budget. */
function withinAssemblyBudget(vertices: number, fid: number, checkpoint: Checkpoint): Checkpoint {
  const budget = ASSEMBLY_STEPS_AT_LEAST + ASSEMBLY_STEPS_PER_VERTEX * vertices;
  let steps = 0;
  return () => {
    checkpoint();
    steps += STEPS_PER_CHECKPOINT;
    if (steps > budget) {
      throw new BadRequestError(
        `Feature ${fid}'s rings lie so entangled (holes inside the bounds of many rings that do not hold them, or ` +
          'rings winding many times around them) that organizing them into polygons would take too long; it cannot be drawn.',
      );
    }
  };
}

/** The rings regrouped polygon by polygon, in the order GDAL/OGR gives them. */
function organizedPolygons(xy: Float64Array, rings: Uint32Array, fid: number, checkpoint: Checkpoint): Shape {
  const ringCount = rings.length - 1;
  if (ringCount === 1) return polygonsShape(xy, rings, ONE_POLYGON);
  const { order, polygonStarts } = assembleRings(xy, rings, withinAssemblyBudget(xy.length / 2, fid, checkpoint));
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
