/**
 * Decodes one `.shp` record with the `shapefile` package: it is handed a buffer holding
 * the file's real header followed by just that record, and reads one value. The package
 * does the GeoJSON conversion (clockwise outer rings, holes assigned to the ring that
 * contains them); this module first checks that the record is whole and of the right
 * type, since the package would otherwise skip ahead or read past the record.
 */
import { openShp } from 'shapefile';
import { DamagedShapefileError } from '../errors.ts';
import type { Geometry } from '../geometry/types.ts';
import { HEADER_BYTES, shapeTypeName } from './shp-header.ts';
import { ShapeType } from './types.ts';

/** Bytes before a record's content: record number and content length. */
export const RECORD_HEADER_BYTES = 8;

/**
 * `buffer` is the 100-byte `.shp` header, then the record (its 8-byte header and content).
 * Resolves to null for a Null shape or a shape without points.
 */
export async function decodeRecord(
  buffer: Uint8Array,
  headerShapeType: number,
  fid: number,
  file: string,
): Promise<Geometry | null> {
  const content = HEADER_BYTES + RECORD_HEADER_BYTES;
  const contentBytes = buffer.length - content;
  const view = new DataView(buffer.buffer, buffer.byteOffset + content, contentBytes);
  if (contentBytes < 4) {
    throw new DamagedShapefileError(file, `record ${fid} is ${contentBytes} bytes long, too short for a shape type.`);
  }
  const shapeType = view.getInt32(0, true);
  if (shapeType === ShapeType.Null) return null;
  if (shapeType !== headerShapeType) {
    throw new DamagedShapefileError(
      file,
      `record ${fid} has shape type ${shapeTypeName(shapeType)}, but the file's header says ${shapeTypeName(headerShapeType)}.`,
    );
  }
  if (!hasPoints(view, shapeType, fid, file)) return null;
  const source = await openShp(buffer);
  const { value } = await source.read();
  return value as Geometry | null;
}

/** Checks the record holds everything its counts announce; false when it has no points. */
function hasPoints(view: DataView, shapeType: number, fid: number, file: string): boolean {
  const bytes = view.byteLength;
  const cutOff = (needed: number) =>
    new DamagedShapefileError(file, `record ${fid} is cut off: it needs ${needed} bytes and has ${bytes}.`);
  const base = shapeType % 10;
  if (base === ShapeType.Point) {
    if (bytes < 20) throw cutOff(20);
    return true;
  }
  if (base === ShapeType.MultiPoint) {
    if (bytes < 40) throw cutOff(40);
    const points = view.getInt32(36, true);
    if (points < 0) throw new DamagedShapefileError(file, `record ${fid} has a negative point count.`);
    if (40 + 16 * points > bytes) throw cutOff(40 + 16 * points);
    return points > 0;
  }
  if (bytes < 44) throw cutOff(44);
  const parts = view.getInt32(36, true);
  const points = view.getInt32(40, true);
  if (parts < 0 || points < 0) throw new DamagedShapefileError(file, `record ${fid} has a negative part or point count.`);
  if (44 + 4 * parts + 16 * points > bytes) throw cutOff(44 + 4 * parts + 16 * points);
  let previous = 0;
  for (let i = 0; i < parts; i++) {
    const first = view.getInt32(44 + 4 * i, true);
    if (first < previous || first > points || (i === 0 && first !== 0)) {
      throw new DamagedShapefileError(file, `record ${fid} has part ${i} starting at point ${first}, out of order or out of range.`);
    }
    previous = first;
  }
  return points > 0 && parts > 0;
}
