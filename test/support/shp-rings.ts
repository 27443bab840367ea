/**
 * Just enough of the shapefile format to read the rings of a Polygon / PolygonZ /
 * PolygonM record straight from the bytes, independently of src/shapefile: the record's
 * offset from the .shx, then its part starts and x, y pairs (the Z and M blocks, which
 * follow them, are not read).
 */
import { readFileSync } from 'node:fs';

export interface RecordRings {
  xy: Float64Array;
  /** Part starts, followed by the vertex count. */
  ringStarts: Uint32Array;
}

const FILE_HEADER_BYTES = 100;
const SHX_ENTRY_BYTES = 8;
const RECORD_HEADER_BYTES = 8;

/** Every record of a polygon shapefile (`path` ends in .shp; its .shx lies beside it). */
export function readPolygonRecords(path: string): RecordRings[] {
  const shp = viewOf(readFileSync(path));
  const shx = viewOf(readFileSync(path.replace(/\.shp$/, '.shx')));
  const records: RecordRings[] = [];
  for (let entry = FILE_HEADER_BYTES; entry < shx.byteLength; entry += SHX_ENTRY_BYTES) {
    const contentStart = 2 * shx.getInt32(entry, false) + RECORD_HEADER_BYTES;
    records.push(polygonRecord(shp, contentStart));
  }
  return records;
}

function polygonRecord(shp: DataView, at: number): RecordRings {
  const parts = shp.getInt32(at + 36, true);
  const points = shp.getInt32(at + 40, true);
  const ringStarts = new Uint32Array(parts + 1);
  for (let part = 0; part < parts; part++) ringStarts[part] = shp.getInt32(at + 44 + 4 * part, true);
  ringStarts[parts] = points;
  const xy = new Float64Array(2 * points);
  const pointsAt = at + 44 + 4 * parts;
  for (let i = 0; i < xy.length; i++) xy[i] = shp.getFloat64(pointsAt + 8 * i, true);
  return { xy, ringStarts };
}

function viewOf(bytes: Buffer): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
