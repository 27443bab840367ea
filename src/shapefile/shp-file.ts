/**
 * The `.shp`: its header, and its records read by the offsets an index gives, one record
 * at a time or, for a walk over every feature, in large chunks (one positional read per
 * record would cost a big file a million system calls).
 *
 * Records are where the index says, as GDAL reads them, not where the chain of record
 * headers leads: a file that GDAL edited without repacking holds a rewritten record at its
 * end and the old one, still well-formed, where it was; following the chain would yield the
 * old record and number the others wrongly. Only without a `.shx` is the chain walked, to
 * build the index.
 */
import { DamagedShapefileError } from '../errors.ts';
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import { spanOf, type ByteReader, type ShapefilePart, type Span } from './byte-reader.ts';
import { readMerged, type ByteRanges } from './merged-runs.ts';
import { HEADER_BYTES, parseMainHeader, type MainHeader } from './shp-header.ts';
import { delimitRecord, recordFacts, RECORD_HEADER_BYTES, type DecodeOptions, type RecordFacts } from './shp-record.ts';
import { checkedLocation, type IndexedLayer, type RecordIndex } from './shx-file.ts';
import type { RecordLocation } from './types.ts';

/** One record as a walk met it, before decoding: what its own header says (bbox undefined for a Null shape). */
export interface RawRecord extends RecordFacts {
  fid: number;
  /** The record's content, from its shape type on (within the walk's chunk). */
  content: Span;
}

/** A record's content, and the fault to report when it is too short for its counts. */
export interface ShpRecord {
  content: Span;
  tooShort: DecodeOptions['tooShort'];
}

export interface ShpFile {
  /** The file's name, for messages. */
  readonly file: string;
  readonly header: MainHeader;
  /** Record `fid`, delimited by `index` as GDAL delimits it: one read. */
  readRecord(index: RecordIndex, fid: number): ShpRecord;
  /**
   * Records `fids` (ascending, no repeats), each delimited as readRecord delimits it, read in
   * merged runs (merged-runs.ts): what a picture of many features reads. A remote file's
   * missing runs are all asked for at once.
   */
  readRecords(index: RecordIndex, fids: readonly number[]): ShpRecord[];
  /**
   * The first `bytes` of the content of each of records `fids` (ascending, no repeats; fewer
   * bytes when a record is shorter), those of nearby records read together.
   */
  recordStarts(index: RecordIndex, fids: readonly number[], bytes: number): Span[];
  /**
   * The records at `locations` (in id order), each delimited as GDAL delimits it. Records
   * that follow one another in the file are read in large chunks; a record out of file
   * order is read on its own, and the chunk is kept for the run it interrupts. A record's
   * `content` is valid until the next record is taken: the chunks share one buffer.
   */
  records(locations: Iterable<RecordLocation & { fid: number }>, checkpoint: Checkpoint): Generator<RawRecord>;
  /**
   * The layer as GDAL reads it without a `.shx`: of the type and extent of the `.shp`
   * header, indexed by one walk over the record headers.
   */
  layerWithoutShx(checkpoint: Checkpoint): IndexedLayer;
}

const SCAN_CHUNK_BYTES = 4 << 20;
/**
 * Records of a list are read through gaps of up to this many bytes (a read costs more than
 * 64 KiB of bytes from a local disk or a round trip away), in runs of up to SCAN_CHUNK_BYTES.
 */
const RUN_LIMITS = { maxGap: 64 << 10, maxSpan: SCAN_CHUNK_BYTES };
const WALK_CHUNK_BYTES = 1 << 20;

/** Reads the header of the `.shp`; its records are read when asked for. */
export function openShp({ bytes: shp, file }: ShapefilePart): ShpFile {
  const shpBytes = shp.size;
  const header = parseMainHeader(shp.readAt(0, HEADER_BYTES), file);
  const readRuns = (ranges: ByteRanges) => readMerged((offset, length) => shp.readAt(offset, length), ranges, RUN_LIMITS);
  /** A record's content as `read` holds it, and whom to blame when it is shorter than its counts need. */
  const delimited = (index: RecordIndex, fid: number, offset: number, contentBytes: number, read: Span): ShpRecord => {
    const { content, ownBytes } = delimitRecord(read, offset, contentBytes, fid, file, shpBytes);
    return { content, tooShort: ownBytes > content.length ? shortenedByIndex(index.file, fid, { offset, contentBytes }, ownBytes) : undefined };
  };
  return {
    file,
    header,
    recordStarts(index, fids, bytes) {
      const { offsets, contentBytes } = index.locateAll(fids);
      return readRuns({ offsets: offsets.map((offset) => offset + RECORD_HEADER_BYTES), lengths: contentBytes.map((length) => Math.min(bytes, length)) });
    },
    readRecord(index, fid) {
      const { offset, contentBytes } = index.locate(fid);
      return delimited(index, fid, offset, contentBytes, spanOf(shp.readAt(offset, RECORD_HEADER_BYTES + contentBytes)));
    },
    readRecords(index, fids) {
      const { offsets, contentBytes } = index.locateAll(fids);
      const reads = readRuns({ offsets, lengths: contentBytes.map((length) => RECORD_HEADER_BYTES + length) });
      return fids.map((fid, i) => delimited(index, fid, offsets[i], contentBytes[i], reads[i]));
    },
    *records(locations, checkpoint) {
      let chunk = spanOf(new Uint8Array(0));
      let chunkStart = 0;
      // One buffer for every chunk of the walk (a fresh one each time cost a million-record walk
      // a third of its time in page faults and collection): a record's content lives until the next.
      const chunkBuffer = new Uint8Array(SCAN_CHUNK_BYTES);
      let nextInFileOrder = HEADER_BYTES;
      for (const location of locations) {
        const { fid, offset, contentBytes } = location;
        const wanted = RECORD_HEADER_BYTES + contentBytes;
        let read: Span;
        if (offset >= chunkStart && offset + wanted <= chunkStart + chunk.length) {
          read = { view: chunk.view, at: offset - chunkStart, length: wanted };
        } else if (offset === nextInFileOrder) {
          chunk = spanOf(shp.readAt(offset, Math.max(SCAN_CHUNK_BYTES, wanted), chunkBuffer));
          chunkStart = offset;
          read = { view: chunk.view, at: 0, length: Math.min(wanted, chunk.length) };
          checkpoint();
        } else {
          read = spanOf(shp.readAt(offset, wanted));
          checkpoint();
        }
        nextInFileOrder = offset + wanted;
        const { content } = delimitRecord(read, offset, contentBytes, fid, file, shpBytes);
        yield { fid, ...recordFacts(content), content };
      }
    },
    layerWithoutShx: (checkpoint) => ({
      index: walkIndex(shp, shpBytes, header, file, checkpoint),
      shapeType: header.shapeType,
      recordType: header.shapeType,
      bbox: header.bbox,
    }),
  };
}

/** Blames the index for a record it cut shorter than the .shp record's own header says. */
function shortenedByIndex(indexFile: string, fid: number, { offset, contentBytes }: RecordLocation, ownBytes: number) {
  return (needed: number) =>
    new DamagedShapefileError(
      indexFile,
      `it lists record ${fid} at byte ${offset} with ${contentBytes} bytes, fewer than the record needs (${needed}), ` +
        `but the .shp record there says ${ownBytes}.`,
    );
}

/**
 * Walks the chain of record headers once, reading the `.shp` in 1 MB chunks, as shapelib's
 * SHPRestoreSHX does when GDAL is asked to rebuild a missing `.shx` (SHAPE_RESTORE_SHX): the
 * walk ends where the header's file length says the file ends, so bytes after it are not
 * records. Unlike shapelib, a record header whose length cannot be right ends the walk with
 * a fault for the records from there on, instead of indexing whatever follows it. The
 * locations are kept as a table of 8 bytes a record.
 */
function walkIndex(shp: ByteReader, shpBytes: number, header: MainHeader, file: string, checkpoint: Checkpoint): RecordIndex {
  const end = Math.min(shpBytes, 2 * header.fileWords);
  let table = new Uint32Array(2 * 1024);
  let count = 0;
  let fault: string | undefined;
  let chunk: Uint8Array = new Uint8Array(0);
  let chunkStart = 0;
  let position = HEADER_BYTES;

  while (position < end) {
    if (position + RECORD_HEADER_BYTES > chunkStart + chunk.length) {
      chunk = shp.readAt(position, Math.min(WALK_CHUNK_BYTES, shpBytes - position));
      chunkStart = position;
      checkpoint();
    }
    if (position + RECORD_HEADER_BYTES > chunkStart + chunk.length) {
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
    position += RECORD_HEADER_BYTES + contentBytes;
  }

  const offsets = table.slice(0, 2 * count);
  const locate = (fid: number) => checkedLocation({ offset: offsets[2 * fid] * 2, contentBytes: offsets[2 * fid + 1] * 2 }, fid, file);
  return {
    count,
    fault,
    file,
    locate,
    locateAll(fids) {
      const locations = fids.map(locate);
      return { offsets: Float64Array.from(locations, ({ offset }) => offset), contentBytes: Float64Array.from(locations, ({ contentBytes }) => contentBytes) };
    },
    *locations() {
      for (let fid = 0; fid < count; fid++) yield { fid, ...locate(fid) };
    },
  };
}
