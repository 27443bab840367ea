/**
 * The `.shx`: where each record lies in the `.shp`, one 8-byte entry read per lookup, or
 * read in large chunks for a walk. Without a `.shx`, shp-file.ts builds the same index by
 * walking the `.shp`.
 *
 * The record count and the locations are the ones GDAL/OGR uses (GDAL 3.6, shapelib's
 * shpopen.c), so that feature ids are the ones QGIS shows.
 */
import { DamagedShapefileError } from '../errors.ts';
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import type { BBox } from '../geometry/types.ts';
import type { ByteReader, ShapefilePart } from './byte-reader.ts';
import { readMerged } from './merged-runs.ts';
import { HEADER_BYTES, parseMainHeader, shapeTypeName, type MainHeader } from './shp-header.ts';
import { baseShapeType, hasZ } from './shp-record.ts';
import type { RecordLocation } from './types.ts';

export interface RecordIndex {
  readonly count: number;
  /** Why records from `count` on cannot be found, when the `.shp` walk hit a broken header. */
  readonly fault?: string;
  /** The file the locations come from, for messages. */
  readonly file: string;
  /** Where record `fid` (below `count`) lies; DamagedShapefileError when that cannot be right. */
  locate(fid: number): RecordLocation;
  /** locate() for each of `fids` (ascending, below `count`), the entries of nearby records read together. */
  locateAll(fids: readonly number[]): Locations;
  /** Every record's location in id order, the `.shx` read in large chunks. */
  locations(checkpoint: Checkpoint): Generator<RecordLocation & { fid: number }>;
}

/** Where many records lie, as two arrays (a million locations are not a million objects): record i of a list at `offsets[i]`, `contentBytes[i]` long. */
export interface Locations {
  offsets: Float64Array;
  contentBytes: Float64Array;
}

/** A layer's index, and its type and extent as GDAL takes them from the headers. */
export interface IndexedLayer {
  index: RecordIndex;
  /** GDAL's layer type: the .shx header's (shpopen.c SHPOpenLL reads the type from the .shx). */
  shapeType: number;
  /** The type every record is promised to be: with Z only when both headers say Z. */
  recordType: number;
  /** GDAL's layer extent: the .shx header's box, as SHPOpenLL reads it. */
  bbox: BBox;
}

/** A record longer than this is taken as a damaged length, not read into memory. */
const MAX_RECORD_BYTES = 256 * 1024 * 1024;
const ENTRY_BYTES = 8;
const ENTRY_CHUNK = 64 * 1024;
/** Entries of listed records are read through gaps of up to 64 KiB, in runs of up to ENTRY_CHUNK entries. */
const ENTRY_RUN_LIMITS = { maxGap: 64 << 10, maxSpan: ENTRY_BYTES * ENTRY_CHUNK };
/** shapelib refuses a `.shx` whose header counts more records than this. */
const MAX_RECORDS = 256_000_000;
/** From this many records on, shapelib trusts the `.shx` size over its header's count. */
const LARGE_RECORD_COUNT = 1024 * 1024;

/**
 * The layer as the `.shx` gives it, read beside the `.shp` whose header is `shpHeader`. Headers that disagree on Z or M
 * read as GDAL reads them; headers of different base types (a PolyLine .shp with a Polygon
 * .shx) are damage, a departure from GDAL, which would hand out the records' lines in a
 * polygon layer.
 */
export function shxLayer({ bytes, file }: ShapefilePart, shpHeader: MainHeader): IndexedLayer {
  const header = parseMainHeader(bytes.readAt(0, HEADER_BYTES), file);
  if (baseShapeType(header.shapeType) !== baseShapeType(shpHeader.shapeType)) {
    throw new DamagedShapefileError(
      file,
      `its header says shape type ${shapeTypeName(header.shapeType)}, the .shp's says ${shapeTypeName(shpHeader.shapeType)}.`,
    );
  }
  return {
    index: shxIndex(bytes, header, file),
    shapeType: header.shapeType,
    recordType: hasZ(header.shapeType) ? shpHeader.shapeType : header.shapeType,
    bbox: header.bbox,
  };
}

/**
 * As in shpopen.c SHPOpenLL, the record count comes from the header's file length, not from
 * the file's size: entries past it are not records, and a `.shx` holding fewer entries than
 * its header counts is refused (shapelib trusts the size instead only from a million
 * records on).
 */
function shxIndex(shx: ByteReader, header: MainHeader, file: string): RecordIndex {
  const count = shxRecordCount(header, shx.size, file);
  const entryAt = (fid: number, bytes: Uint8Array, at: number): RecordLocation => {
    const view = new DataView(bytes.buffer, bytes.byteOffset + at, ENTRY_BYTES);
    return checkedLocation({ offset: view.getInt32(0) * 2, contentBytes: view.getInt32(4) * 2 }, fid, file);
  };
  return {
    count,
    file,
    locate(fid) {
      const entry = shx.readAt(HEADER_BYTES + ENTRY_BYTES * fid, ENTRY_BYTES);
      if (entry.length < ENTRY_BYTES) throw new DamagedShapefileError(file, `the entry of record ${fid} is cut off.`);
      return entryAt(fid, entry, 0);
    },
    locateAll(fids) {
      const entries = { offsets: fids.map((fid) => HEADER_BYTES + ENTRY_BYTES * fid), lengths: fids.map(() => ENTRY_BYTES) };
      const spans = readMerged((offset, length) => shx.readAt(offset, length), entries, ENTRY_RUN_LIMITS);
      const locations = { offsets: new Float64Array(fids.length), contentBytes: new Float64Array(fids.length) };
      spans.forEach(({ view, at, length }, i) => {
        if (length < ENTRY_BYTES) throw new DamagedShapefileError(file, `the entry of record ${fids[i]} is cut off.`);
        locations.offsets[i] = view.getInt32(at) * 2;
        locations.contentBytes[i] = view.getInt32(at + 4) * 2;
        checkLocation(locations.offsets[i], locations.contentBytes[i], fids[i], file);
      });
      return locations;
    },
    *locations(checkpoint) {
      for (let first = 0; first < count; first += ENTRY_CHUNK) {
        const entries = Math.min(ENTRY_CHUNK, count - first);
        const chunk = shx.readAt(HEADER_BYTES + ENTRY_BYTES * first, ENTRY_BYTES * entries);
        checkpoint();
        for (let i = 0; i < entries; i++) {
          if (ENTRY_BYTES * (i + 1) > chunk.length) throw new DamagedShapefileError(file, `the entry of record ${first + i} is cut off.`);
          yield { fid: first + i, ...entryAt(first + i, chunk, ENTRY_BYTES * i) };
        }
      }
    },
  };
}

function shxRecordCount(header: MainHeader, shxBytes: number, file: string): number {
  // shapelib masks the top bit of the length and divides as C does.
  const words = header.fileWords & 0x7fffffff;
  const declared = Math.trunc((words - 50) / 4);
  if (declared < 0 || declared > MAX_RECORDS) {
    throw new DamagedShapefileError(
      file,
      `its header's file length (${words * 2} bytes) gives ${declared} records, which cannot be right.`,
    );
  }
  const entries = Math.floor((shxBytes - HEADER_BYTES) / ENTRY_BYTES);
  if (declared <= entries) return declared;
  if (declared >= LARGE_RECORD_COUNT) return entries;
  throw new DamagedShapefileError(file, `its header counts ${declared} records, but the file holds only ${entries} entries.`);
}

/** A location that can be read: inside the file's addressable range, of a sane length. */
export function checkedLocation(location: RecordLocation, fid: number, file: string): RecordLocation {
  checkLocation(location.offset, location.contentBytes, fid, file);
  return location;
}

function checkLocation(offset: number, contentBytes: number, fid: number, file: string): void {
  if (offset < HEADER_BYTES || contentBytes < 0 || contentBytes > MAX_RECORD_BYTES) {
    throw new DamagedShapefileError(file, `record ${fid} is listed at byte ${offset} with ${contentBytes} bytes, which cannot be right.`);
  }
}
