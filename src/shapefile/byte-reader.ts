/**
 * What the shapefile readers (shp-file, shx-file, dbf-file) read through: a file's bytes at
 * a position, synchronously. On the workers a local file is a file descriptor read by
 * positional reads (positional-read.ts), exactly as before data sources came; a remote file
 * (HTTP, S3, a plugin's) is a view of the bytes already fetched, which throws BytesNotHeld
 * for what it does not hold, so that the job can fetch those bytes without blocking its
 * thread and run again (job-context/remote-shapefiles.ts). The readers stay synchronous: a
 * local read costs what it always cost, and decoding needs no await between records.
 */

export interface ByteReader {
  /**
   * Up to `length` bytes at `position`; shorter only at the end of the file. `into`, at least
   * `length` long, is a buffer the reader may fill and answer a view of, rather than allocate
   * (a local file's reader does; a remote one answers the bytes it holds): a walk over a
   * large file reads every chunk into one buffer instead of hundreds of fresh ones.
   */
  readAt(position: number, length: number, into?: Uint8Array): Uint8Array;
  /** The file's size in bytes. */
  readonly size: number;
}

/** A part of a shapefile (.shp, .shx, .dbf, .prj, .cpg) as its reader sees it. */
export interface ShapefilePart {
  /** The file's name, for messages. */
  file: string;
  bytes: ByteReader;
}

/** One version of a remote file, as a job reads it. */
export interface FileVersion {
  /** The file as its source names it. */
  name: string;
  /** Its version as the source states it (DataSource's SourceStat.version). */
  version: string;
  size: number;
}

/** A byte range a reader asked for and did not have. */
export interface WantedBytes {
  file: FileVersion;
  offset: number;
  length: number;
  /**
   * Fetched as asked, not as the blocks around it: bytes read once and then kept decoded
   * elsewhere (a header by its opened version, a record by the feature cache), whose
   * neighbours would be read for nothing.
   */
  exact?: boolean;
}

/**
 * Thrown by a reader that does not hold bytes it was asked for: the job fetches `wanted`
 * and runs again. Not a fault: it never reaches a client.
 */
export class BytesNotHeld extends Error {
  constructor(readonly wanted: WantedBytes[]) {
    super(`bytes not fetched yet: ${wanted.map(({ file, offset, length }) => `${file.name} ${offset}+${length}`).join(', ')}`);
    this.name = 'BytesNotHeld';
  }
}

/**
 * The bytes `first` misses together with those `also` would miss, so that they are fetched in
 * one round trip instead of one after the other (a record and its `.dbf` row, say). `first`
 * is any error: one that is not BytesNotHeld is rethrown as it is, and `also` is not tried.
 */
export function alsoWanted(first: unknown, also: () => unknown): unknown {
  if (!(first instanceof BytesNotHeld)) return first;
  try {
    also();
  } catch (error) {
    if (error instanceof BytesNotHeld) return new BytesNotHeld([...first.wanted, ...error.wanted]);
  }
  return first;
}

/**
 * `read(item)` for each item, in order; a BytesNotHeld from any of them is held until every
 * item has been tried, then thrown with all the ranges they missed: a remote job then fetches
 * a whole list's index entries, or all its records and rows, in one round trip, instead of
 * running again once per item. Local reads never miss: a try per item is all it costs them.
 */
export function readingEach<T, R>(items: Iterable<T>, read: (item: T) => R): R[] {
  const results: R[] = [];
  let missing: WantedBytes[] | undefined;
  for (const item of items) {
    try {
      results.push(read(item));
    } catch (error) {
      if (!(error instanceof BytesNotHeld)) throw error;
      (missing ??= []).push(...error.wanted);
    }
  }
  if (missing) throw new BytesNotHeld(missing);
  return results;
}

/**
 * Bytes within a larger read, without a view of their own: `length` bytes of `view` from
 * `at`. The records of a run of a million features share one DataView.
 */
export interface Span {
  view: DataView;
  at: number;
  length: number;
}

export function spanOf(bytes: Uint8Array): Span {
  return { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), at: 0, length: bytes.byteLength };
}
