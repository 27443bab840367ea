/**
 * Where each record lies in the `.shp`: from the `.shx` (one 8-byte entry read per
 * lookup) or, when the `.shx` is missing, from one walk over the `.shp` record headers,
 * kept as a table of 8 bytes per record.
 */
import { DamagedShapefileError } from '../errors.ts';
import type { Checkpoint } from '../geometry/simplify.ts';
import { readAt } from './positional-read.ts';
import { HEADER_BYTES } from './shp-header.ts';

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
  /** `fid` must be below `count`. */
  locate(fid: number): RecordLocation;
}

const ENTRY_BYTES = 8;

export function shxIndex(shx: number, shxBytes: number, file: string): RecordIndex {
  return {
    count: Math.max(0, Math.floor((shxBytes - HEADER_BYTES) / ENTRY_BYTES)),
    bytes: 0,
    file,
    locate(fid) {
      const entry = readAt(shx, HEADER_BYTES + ENTRY_BYTES * fid, ENTRY_BYTES);
      if (entry.length < ENTRY_BYTES) throw new DamagedShapefileError(file, `the entry of record ${fid} is cut off.`);
      const view = new DataView(entry.buffer, entry.byteOffset, ENTRY_BYTES);
      return { offset: view.getInt32(0) * 2, contentBytes: view.getInt32(4) * 2 };
    },
  };
}

const WALK_CHUNK_BYTES = 1 << 20;

/** Walks the chain of record headers once, reading the `.shp` in 1 MB chunks (as GDAL does without a `.shx`). */
export function walkIndex(shp: number, shpBytes: number, file: string, checkpoint: Checkpoint): RecordIndex {
  let table = new Uint32Array(2 * 1024);
  let count = 0;
  let fault: string | undefined;
  let chunk: Uint8Array = new Uint8Array(0);
  let chunkStart = 0;
  let position = HEADER_BYTES;

  while (position < shpBytes) {
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
  return {
    count,
    fault,
    bytes: offsets.byteLength,
    file,
    locate: (fid) => ({ offset: offsets[2 * fid] * 2, contentBytes: offsets[2 * fid + 1] * 2 }),
  };
}
