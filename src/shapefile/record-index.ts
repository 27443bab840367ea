/**
 * Where each record lies in the `.shp`: from the `.shx` (one 8-byte entry read per
 * lookup, or read in large chunks for a walk) or, when the `.shx` is missing, from one walk
 * over the `.shp` record headers, kept as a table of 8 bytes per record.
 *
 * The record count and the locations are the ones GDAL/OGR uses (GDAL 3.6, shapelib's
 * shpopen.c), so that feature ids are the ones QGIS shows.
 */
import { DamagedShapefileError } from '../errors.ts';
import type { Checkpoint } from '../geometry/simplify.ts';
import { readAt } from './positional-read.ts';
import { HEADER_BYTES, type MainHeader } from './shp-header.ts';

export interface RecordLocation {
  /** Byte offset of the record header in the `.shp`. */
  offset: number;
  /** Content length in bytes, not counting the 8-byte record header. */
  contentBytes: number;
}

export interface RecordIndex {
  readonly count: number;
  /** Why records from `count` on cannot be found, when the `.shp` walk hit a broken header. */
  readonly fault?: string;
  /** Memory the index holds, for cache accounting. */
  readonly bytes: number;
  /** The file the locations come from, for messages. */
  readonly file: string;
  /** Where record `fid` (below `count`) lies; DamagedShapefileError when that cannot be right. */
  locate(fid: number): RecordLocation;
  /** Every record's location in id order, the `.shx` read in large chunks. */
  locations(checkpoint: Checkpoint): Generator<RecordLocation & { fid: number }>;
}

/** A record longer than this is taken as a damaged length, not read into memory. */
export const MAX_RECORD_BYTES = 256 * 1024 * 1024;
const ENTRY_BYTES = 8;
const ENTRY_CHUNK = 64 * 1024;
/** shapelib refuses a `.shx` whose header counts more records than this. */
const MAX_RECORDS = 256_000_000;
/** From this many records on, shapelib trusts the `.shx` size over its header's count. */
const LARGE_RECORD_COUNT = 1024 * 1024;

/**
 * The `.shx` index. As in shpopen.c SHPOpenLL, the record count comes from the header's file
 * length, not from the file's size: entries past it are not records, and a `.shx` holding
 * fewer entries than its header counts is refused (shapelib trusts the size instead only
 * from a million records on).
 */
export function shxIndex(shx: number, shxBytes: number, header: MainHeader, file: string): RecordIndex {
  const count = shxRecordCount(header, shxBytes, file);
  const entryAt = (fid: number, bytes: Uint8Array, at: number): RecordLocation => {
    const view = new DataView(bytes.buffer, bytes.byteOffset + at, ENTRY_BYTES);
    return checkedLocation({ offset: view.getInt32(0) * 2, contentBytes: view.getInt32(4) * 2 }, fid, file);
  };
  return {
    count,
    bytes: 0,
    file,
    locate(fid) {
      const entry = readAt(shx, HEADER_BYTES + ENTRY_BYTES * fid, ENTRY_BYTES);
      if (entry.length < ENTRY_BYTES) throw new DamagedShapefileError(file, `the entry of record ${fid} is cut off.`);
      return entryAt(fid, entry, 0);
    },
    *locations(checkpoint) {
      for (let first = 0; first < count; first += ENTRY_CHUNK) {
        const entries = Math.min(ENTRY_CHUNK, count - first);
        const chunk = readAt(shx, HEADER_BYTES + ENTRY_BYTES * first, ENTRY_BYTES * entries);
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
  // shapelib masks the top bit of the length (in 16-bit words) and divides as C does.
  const words = declaredWords(header) & 0x7fffffff;
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

/** The header's file length in 16-bit words, unsigned as shapelib reads it. */
function declaredWords(header: MainHeader): number {
  return new DataView(header.bytes.buffer, header.bytes.byteOffset + 24, 4).getUint32(0);
}

/** A location that can be read: inside the file's addressable range, of a sane length. */
function checkedLocation(location: RecordLocation, fid: number, file: string): RecordLocation {
  const { offset, contentBytes } = location;
  if (offset < HEADER_BYTES || contentBytes < 0 || contentBytes > MAX_RECORD_BYTES) {
    throw new DamagedShapefileError(file, `record ${fid} is listed at byte ${offset} with ${contentBytes} bytes, which cannot be right.`);
  }
  return location;
}

const WALK_CHUNK_BYTES = 1 << 20;

/**
 * Walks the chain of record headers once, reading the `.shp` in 1 MB chunks, as shapelib's
 * SHPRestoreSHX does when GDAL is asked to rebuild a missing `.shx` (SHAPE_RESTORE_SHX): the
 * walk ends where the header's file length says the file ends, so bytes after it are not
 * records. Unlike shapelib, a record header whose length cannot be right ends the walk with
 * a fault for the records from there on, instead of indexing whatever follows it.
 */
export function walkIndex(shp: number, shpBytes: number, header: MainHeader, file: string, checkpoint: Checkpoint): RecordIndex {
  const end = Math.min(shpBytes, 2 * declaredWords(header));
  let table = new Uint32Array(2 * 1024);
  let count = 0;
  let fault: string | undefined;
  let chunk: Uint8Array = new Uint8Array(0);
  let chunkStart = 0;
  let position = HEADER_BYTES;

  while (position < end) {
    if (position + ENTRY_BYTES > chunkStart + chunk.length) {
      chunk = readAt(shp, position, Math.min(WALK_CHUNK_BYTES, shpBytes - position));
      chunkStart = position;
      checkpoint();
    }
    if (position + ENTRY_BYTES > chunkStart + chunk.length) {
      fault = `the file ends inside the header of record ${count}, at byte ${position}.`;
      break;
    }
    const contentBytes = new DataView(chunk.buffer, chunk.byteOffset + position - chunkStart + 4, 4).getInt32(0) * 2;
    if (contentBytes < 4) {
      fault = `record ${count} at byte ${position} declares a length of ${contentBytes} bytes, so the records after it cannot be found without a .shx.`;
      break;
    }
    if (2 * count + 2 > table.length) {
      const grown = new Uint32Array(table.length * 2);
      grown.set(table);
      table = grown;
    }
    table[2 * count] = position / 2;
    table[2 * count + 1] = contentBytes / 2;
    count++;
    position += ENTRY_BYTES + contentBytes;
  }

  const offsets = table.slice(0, 2 * count);
  const locate = (fid: number) => checkedLocation({ offset: offsets[2 * fid] * 2, contentBytes: offsets[2 * fid + 1] * 2 }, fid, file);
  return {
    count,
    fault,
    bytes: offsets.byteLength,
    file,
    locate,
    *locations() {
      for (let fid = 0; fid < count; fid++) yield { fid, ...locate(fid) };
    },
  };
}
