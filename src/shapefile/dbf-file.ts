/**
 * The `.dbf`: its header read once, in the text encoding its `.cpg` or LDID names (with
 * neither, UTF-8 where valid: encoding.ts), then rows read by feature id, or their deletion
 * flags in chunks of rows for a walk.
 */
import { DamagedShapefileError } from '../errors.ts';
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import {
  attributeType,
  decodeRow,
  DELETED,
  parseDbfHeader,
  parseDbfPrefix,
  DBF_PREFIX_BYTES,
  type StoredField,
  type AttributeValue,
} from './dbf.ts';
import { dbfEncoding, decoderFor } from './encoding.ts';
import { BytesNotHeld, type ShapefilePart } from './byte-reader.ts';
import { readMerged } from './merged-runs.ts';
import { readSideFile } from './positional-read.ts';

export interface DbfFile {
  /**
   * Whether each of `rows` (ascending) is marked deleted, 1 or 0, from its first byte, the
   * flags of nearby rows read together (merged-runs.ts); 0 past the last row.
   */
  deletedAmong(rows: readonly number[]): Uint8Array;
  /** isDeleted for rows asked in ascending order, as a walk asks: the flags are read in chunks of rows. */
  deletedRows(): (row: number) => boolean;
  /** Row `row` decoded; undefined when it is marked deleted. */
  attributes(row: number): Record<string, AttributeValue> | undefined;
  /** The fields, in the file's order. */
  readonly fields: readonly StoredField[];
  /**
   * Rows 0 to `end` - 1 that are not marked deleted, in one pass over the file in large
   * chunks, each with only the values of `fieldNames` decoded: what a filter over a million
   * rows reads.
   */
  rows(fieldNames: readonly string[], end: number, checkpoint: Checkpoint): Generator<{ row: number; values: Record<string, AttributeValue> }>;
}

/** What a shapefile without a `.dbf` reads as: no row deleted, no attributes. */
export const WITHOUT_DBF: DbfFile = {
  deletedAmong: (rows) => new Uint8Array(rows.length),
  deletedRows: () => () => false,
  attributes: () => ({}),
  fields: [],
  *rows(_fieldNames, end) {
    for (let row = 0; row < end; row++) yield { row, values: {} };
  },
};

/** Rows are read in chunks of about this many bytes, for deletion flags and for scans. */
const CHUNK_BYTES = 1 << 20;
/** The deletion flags of listed rows are read through gaps of up to this many bytes, in runs of up to CHUNK_BYTES. */
const FLAG_RUN_LIMITS = { maxGap: 64 << 10, maxSpan: CHUNK_BYTES };

/**
 * Reads the header of `dbf`, decoding its text as `cpg` says; `onProblem` is told of a
 * `.cpg` naming an encoding that is not known. A damaged `.dbf` fails only attribute reads,
 * so that geometry stays readable.
 */
export function openDbf(dbf: ShapefilePart, cpg: ShapefilePart | undefined, onProblem: (problem: string) => void): DbfFile {
  try {
    return readDbfHeader(dbf, cpg, onProblem);
  } catch (error) {
    // Bytes a remote file has not fetched yet are no damage: the job fetches them and opens it again.
    if (error instanceof BytesNotHeld) throw error;
    return {
      ...WITHOUT_DBF,
      attributes: () => {
        throw error;
      },
      rows: () => {
        throw error;
      },
    };
  }
}

function readDbfHeader({ bytes: dbf, file }: ShapefilePart, cpg: ShapefilePart | undefined, onProblem: (problem: string) => void): DbfFile {
  const { headerBytes, ldid } = parseDbfPrefix(dbf.readAt(0, DBF_PREFIX_BYTES), file);
  const cpgText = cpg && readSideFile(cpg.bytes);
  const encoding = dbfEncoding(cpgText, ldid);
  if (cpg && cpgText !== undefined && encoding.source !== 'cpg') {
    onProblem(`${cpg.file} names unknown encoding '${cpgText.trim()}'; the .dbf is read as ${encoding.name}.`);
  }
  const decode = decoderFor(encoding.name);
  const header = parseDbfHeader(dbf.readAt(0, headerBytes), file, decode);
  const { recordCount, rowBytes } = header;
  const rowOffset = (row: number) => header.headerBytes + row * rowBytes;
  return {
    deletedAmong(rows) {
      const present = rows.filter((row) => row < recordCount);
      const flags = { offsets: present.map(rowOffset), lengths: present.map(() => 1) };
      const spans = readMerged((offset, length) => dbf.readAt(offset, length), flags, FLAG_RUN_LIMITS);
      // Rows past the last are a prefix's complement: `rows` ascend.
      return Uint8Array.from({ length: rows.length }, (_, i) => (i < spans.length && spans[i].length > 0 && spans[i].view.getUint8(spans[i].at) === DELETED ? 1 : 0));
    },
    deletedRows() {
      const rowsPerChunk = Math.max(1, Math.floor(CHUNK_BYTES / rowBytes));
      let chunk: Uint8Array = new Uint8Array(0);
      let firstRow = 0;
      let rows = 0;
      return (row) => {
        if (row >= recordCount) return false;
        if (row < firstRow || row >= firstRow + rows) {
          firstRow = row;
          rows = Math.min(rowsPerChunk, recordCount - row);
          chunk = dbf.readAt(rowOffset(row), rows * rowBytes);
        }
        return chunk[(row - firstRow) * rowBytes] === DELETED;
      };
    },
    fields: header.columns.map((column) => ({ name: column.name, type: attributeType(column), width: column.length })),
    *rows(fieldNames, end, checkpoint) {
      const columns = header.columns.filter((column) => fieldNames.includes(column.name));
      const last = Math.min(end, recordCount);
      const rowsPerChunk = Math.max(1, Math.floor(CHUNK_BYTES / rowBytes));
      for (let first = 0; first < last; first += rowsPerChunk) {
        checkpoint();
        const rows = Math.min(rowsPerChunk, last - first);
        const chunk = dbf.readAt(rowOffset(first), rows * rowBytes);
        if (chunk.length < rows * rowBytes) throw new DamagedShapefileError(file, `row ${first + Math.floor(chunk.length / rowBytes)} is cut off at the end of the file.`);
        for (let i = 0; i < rows; i++) {
          const bytes = chunk.subarray(i * rowBytes, (i + 1) * rowBytes);
          if (bytes[0] !== DELETED) yield { row: first + i, values: decodeRow(bytes, columns, decode) };
        }
      }
    },
    attributes(row) {
      // GDAL gives no feature at all past the last row (a departure: our geometry stays readable).
      if (row >= recordCount) throw new DamagedShapefileError(file, `it has ${recordCount} rows, so feature ${row} has no attributes.`);
      const bytes = dbf.readAt(rowOffset(row), rowBytes);
      if (bytes.length < rowBytes) throw new DamagedShapefileError(file, `row ${row} is cut off at the end of the file.`);
      return bytes[0] === DELETED ? undefined : decodeRow(bytes, header.columns, decode);
    },
  };
}
