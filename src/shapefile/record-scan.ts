/**
 * A sequential walk over the records of a `.shp`, reading the file in large chunks: the way
 * to visit every feature of a big file, where one positional read per record would cost a
 * million system calls. Each record's bounding box and point count come from its own header
 * bytes, so a caller can skip a record before paying for decoding it.
 *
 * The walk follows the index, not the chain of record headers in the `.shp`: records are
 * where the `.shx` says, as GDAL reads them. A file that GDAL edited without repacking
 * holds a rewritten record at its end and the old one, still well-formed, where it was;
 * following the chain would yield the old record and number the others wrongly.
 */
import type { Checkpoint } from '../geometry/simplify.ts';
import type { BBox } from '../geometry/types.ts';
import { readAt } from './positional-read.ts';
import type { RecordLocation } from './record-index.ts';
import { HEADER_BYTES } from './shp-header.ts';
import { delimitRecord, RECORD_HEADER_BYTES } from './shp-record.ts';
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
const DELETION_CHUNK_BYTES = 1 << 20;

/**
 * Yields the records at `locations` (in id order), each delimited as GDAL delimits it
 * (shp-record.ts delimitRecord). Records that follow one another in the file are read in
 * large chunks; a record out of file order is read on its own, and the chunk is kept for
 * the run it interrupts. A record that cannot be read throws DamagedShapefileError naming
 * `file`.
 */
export function* walkRecords(
  shp: number,
  shpBytes: number,
  locations: Iterable<RecordLocation & { fid: number }>,
  file: string,
  checkpoint: Checkpoint,
): Generator<RawRecord> {
  let chunk: Uint8Array = new Uint8Array(0);
  let chunkStart = 0;
  let nextInFileOrder = HEADER_BYTES;
  for (const location of locations) {
    const { fid, offset } = location;
    const wanted = RECORD_HEADER_BYTES + location.contentBytes;
    let read: Uint8Array;
    if (offset >= chunkStart && offset + wanted <= chunkStart + chunk.length) {
      read = chunk.subarray(offset - chunkStart, offset - chunkStart + wanted);
    } else if (offset === nextInFileOrder) {
      chunk = readAt(shp, offset, Math.max(SCAN_CHUNK_BYTES, wanted));
      chunkStart = offset;
      read = chunk.subarray(0, wanted);
      checkpoint();
    } else {
      read = readAt(shp, offset, wanted);
      checkpoint();
    }
    nextInFileOrder = offset + wanted;
    const { content } = delimitRecord(read, location, fid, file, shpBytes);
    yield { fid, ...recordFacts(content), content };
  }
}

/**
 * Whether rows of a `.dbf` are marked deleted, asked in ascending row order: the flags are
 * read in chunks of rows as the walk reaches them. GDAL skips deleted rows when it lists a
 * layer's features.
 */
export function deletedRows(dbf: number, headerBytes: number, rowBytes: number, rowCount: number): (row: number) => boolean {
  const rowsPerChunk = Math.max(1, Math.floor(DELETION_CHUNK_BYTES / rowBytes));
  let chunk: Uint8Array = new Uint8Array(0);
  let firstRow = 0;
  let rows = 0;
  return (row) => {
    if (row >= rowCount) return false;
    if (row < firstRow || row >= firstRow + rows) {
      firstRow = row;
      rows = Math.min(rowsPerChunk, rowCount - row);
      chunk = readAt(dbf, headerBytes + row * rowBytes, rows * rowBytes);
    }
    return chunk[(row - firstRow) * rowBytes] === DELETED;
  };
}

/** The deletion flag that starts a deleted `.dbf` row. */
export const DELETED = 0x2a;

/** Bounding box and point count from the record content; malformed ones count as null shapes. */
function recordFacts(content: DataView): { bbox: BBox | undefined; pointCount: number } {
  if (content.byteLength < 4) return { bbox: undefined, pointCount: 0 };
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
