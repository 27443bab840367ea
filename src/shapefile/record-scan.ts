/**
 * A sequential walk over the records of a `.shp`, reading the file in large chunks: the way
 * to visit every feature of a big file, where one positional read per record would cost a
 * million system calls. Each record's bounding box and point count come from its own header
 * bytes, so a caller can skip a record before paying for decoding it.
 */
import { DamagedShapefileError } from '../errors.ts';
import type { Checkpoint } from '../geometry/simplify.ts';
import type { BBox } from '../geometry/types.ts';
import { readAt } from './positional-read.ts';
import { HEADER_BYTES } from './shp-header.ts';
import { RECORD_HEADER_BYTES } from './shp-record.ts';
import { ShapeType } from './types.ts';

/** One record as the walk met it, before decoding. */
export interface RawRecord {
  fid: number;
  /** From the record's own header; undefined for a Null shape. */
  bbox: BBox | undefined;
  pointCount: number;
  /** The record's content, from its shape type on (a view into the walk's chunk). */
  content: DataView;
}

const SCAN_CHUNK_BYTES = 4 << 20;

/**
 * Yields records `0 .. count-1` in file order, starting after the 100-byte header. A
 * record header that cannot be right, or a record cut off by the end of the file, throws
 * DamagedShapefileError naming `file`.
 */
export function* walkRecords(shp: number, shpBytes: number, count: number, file: string, checkpoint: Checkpoint): Generator<RawRecord> {
  let chunk: Uint8Array = new Uint8Array(0);
  let chunkStart = HEADER_BYTES;
  let position = HEADER_BYTES;
  for (let fid = 0; fid < count; fid++) {
    if (position + RECORD_HEADER_BYTES > chunkStart + chunk.length) {
      ({ chunk, chunkStart } = readChunk(shp, position, RECORD_HEADER_BYTES, shpBytes));
      checkpoint();
    }
    const contentBytes = dataView(chunk, position - chunkStart + 4, 4).getInt32(0) * 2;
    const recordBytes = RECORD_HEADER_BYTES + contentBytes;
    if (contentBytes < 4 || position + recordBytes > shpBytes) {
      throw new DamagedShapefileError(file, `record ${fid} at byte ${position} declares ${contentBytes} bytes, which cannot be right.`);
    }
    if (position + recordBytes > chunkStart + chunk.length) {
      ({ chunk, chunkStart } = readChunk(shp, position, recordBytes, shpBytes));
      checkpoint();
    }
    const offset = position - chunkStart;
    if (offset + recordBytes > chunk.length) {
      throw new DamagedShapefileError(file, `record ${fid} is cut off at the end of the file.`);
    }
    const content = dataView(chunk, offset + RECORD_HEADER_BYTES, contentBytes);
    yield { fid, ...recordFacts(content), content };
    position += recordBytes;
  }
}

function readChunk(shp: number, position: number, atLeast: number, shpBytes: number) {
  const chunk = readAt(shp, position, Math.min(Math.max(SCAN_CHUNK_BYTES, atLeast), shpBytes - position));
  return { chunk, chunkStart: position };
}

/** Bounding box and point count from the record content; malformed ones count as null shapes. */
function recordFacts(content: DataView): { bbox: BBox | undefined; pointCount: number } {
  const shapeType = content.getInt32(0, true);
  if (shapeType === ShapeType.Null) return { bbox: undefined, pointCount: 0 };
  const base = shapeType % 10;
  if (base === ShapeType.Point) {
    if (content.byteLength < 20) return { bbox: undefined, pointCount: 0 };
    const x = content.getFloat64(4, true);
    const y = content.getFloat64(12, true);
    return { bbox: { xmin: x, ymin: y, xmax: x, ymax: y }, pointCount: 1 };
  }
  const countOffset = base === ShapeType.MultiPoint ? 36 : 40;
  if (content.byteLength < countOffset + 4) return { bbox: undefined, pointCount: 0 };
  return {
    bbox: {
      xmin: content.getFloat64(4, true),
      ymin: content.getFloat64(12, true),
      xmax: content.getFloat64(20, true),
      ymax: content.getFloat64(28, true),
    },
    pointCount: Math.max(0, content.getInt32(countOffset, true)),
  };
}

function dataView(bytes: Uint8Array, offset: number, length: number): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset + offset, length);
}
