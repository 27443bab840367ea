/**
 * One job's view of a remote data source's files: the bytes the job fetched itself (kept
 * until it ends, so that a block pushed out of the worker's block cache by other jobs
 * cannot make it fetch again) and those the block cache holds. The shapefile readers ask it
 * synchronously (read); what it does not hold is thrown as BytesNotHeld, and the job fetches
 * it (fetch: every range wanted at once, in parallel, coalesced by the block cache) and runs
 * again (remote-shapefiles.ts).
 *
 * A range wanted `exact` (a header, a .shp record) and a scan's chunk are fetched as they are
 * and kept by the job only: the worker's block cache is for what many requests ask for
 * again, .shx entries and .dbf rows near one another, which a scan passed through it would
 * push out (and each of its blocks would be held twice, by the cache and by the job).
 *
 * A scan (a where= filter, an /ogc page, a map's walk) asks for large sequential chunks; each
 * chunk it misses right after the last one fetches twice as much as that one did, up to
 * MAX_AHEAD_BYTES: a walk over a large file runs again a number of times that grows with the
 * logarithm of its size up to 64 MiB (seven runs), then by one a MAX_AHEAD_BYTES.
 */
import { FileChangedError } from '../plugin-contract/data-source-errors.ts';
import type { DataSource } from '../plugin-contract/data-source-plugin.ts';
import { BytesNotHeld, type FileVersion, type WantedBytes } from '../shapefile/byte-reader.ts';
import type { BlockCache } from '../sources/block-cache.ts';
import type { ReadBudget } from '../sources/read-budget.ts';

/** A read of this size or more is a scan's chunk, worth reading ahead of. */
const SCAN_BYTES = 512 * 1024;
const MAX_AHEAD_BYTES = 32 << 20;

export interface JobBytes {
  /**
   * The `length` bytes at `position` (fewer at the end of the file); BytesNotHeld when they
   * are not at hand, wanting them `exact` when asked so or when they are a scan's chunk.
   */
  read(file: FileVersion, position: number, length: number, exact?: boolean): Uint8Array;
  /**
   * Keeps `given` as the file's first bytes (its opening bytes, fetched by the main thread at
   * this version); false when nothing was given.
   */
  keep(file: FileVersion, given: Uint8Array | undefined): boolean;
  /** Whether the range is at hand, without throwing. */
  holds(file: FileVersion, position: number, length: number): boolean;
  /** Fetches what `missing` wants, and keeps it until the job ends. */
  fetch(missing: BytesNotHeld, signal: AbortSignal): Promise<void>;
}

interface Piece {
  offset: number;
  bytes: Uint8Array;
}

export function jobBytes(source: DataSource, blocks: BlockCache, budget: ReadBudget): JobBytes {
  /** By name and version: what this job fetched. */
  const pieces = new Map<string, Piece[]>();
  /** By name and version: the last scan chunk fetched, to read ahead of the next. */
  const lastScan = new Map<string, Piece>();

  const lookUp = (file: FileVersion, position: number, length: number): Uint8Array | undefined => {
    const end = Math.min(file.size, position + length);
    if (end <= position) return new Uint8Array(0);
    for (const piece of pieces.get(keyOf(file)) ?? []) {
      if (piece.offset <= position && end <= piece.offset + piece.bytes.length) return piece.bytes.subarray(position - piece.offset, end - piece.offset);
    }
    return blocks.held({ source, name: file.name, version: file.version, offset: position, length: end - position });
  };

  const keepPiece = (file: FileVersion, piece: Piece) => {
    const key = keyOf(file);
    const held = pieces.get(key);
    if (held) held.push(piece);
    else pieces.set(key, [piece]);
  };

  /** The range to fetch for a wanted one: a scan's next chunk grows. */
  const rangeFor = ({ file, offset, length }: WantedBytes): { offset: number; length: number } => {
    const last = lastScan.get(keyOf(file));
    const follows = last !== undefined && offset >= last.offset && offset <= last.offset + last.bytes.length;
    const grown = length >= SCAN_BYTES && follows ? Math.max(length, Math.min(2 * last.bytes.length, MAX_AHEAD_BYTES)) : length;
    return { offset, length: Math.max(0, Math.min(grown, file.size - offset)) };
  };

  const fetchExact = async (file: FileVersion, offset: number, length: number, signal: AbortSignal) => {
    if (length <= 0) return new Uint8Array(0);
    budget.charge(length, source.describe());
    return source.read(file.name, offset, length, signal, file.version);
  };

  return {
    read(file, position, length, exact = false) {
      const bytes = lookUp(file, position, length);
      if (bytes === undefined) throw new BytesNotHeld([{ file, offset: position, length, ...(exact || length >= SCAN_BYTES ? { exact: true } : {}) }]);
      return bytes;
    },
    holds: (file, position, length) => lookUp(file, position, length) !== undefined,
    keep(file, given) {
      if (given === undefined) return false;
      if (lookUp(file, 0, given.length) === undefined) keepPiece(file, { offset: 0, bytes: given });
      return true;
    },
    async fetch(missing, signal) {
      const ranges = touchingMerged(missing.wanted.map((wanted) => ({ ...wanted, ...rangeFor(wanted) })));
      // A list's records come as hundreds of ranges: a few at a time, as a browser fetches, not all at once at the server.
      await inTurns(ranges, MAX_PARALLEL_READS, async (wanted) => {
        const { file, offset, length } = wanted;
        const bytes = wanted.exact ? await fetchExact(file, offset, length, signal) : await blocks.read({ source, name: file.name, version: file.version, offset, length, signal, budget });
        // Fewer bytes than its version's size holds there: the file is shorter now, another version (a 416 carries no version to check).
        if (bytes.length < length) throw new FileChangedError(source.describe(), file.name);
        const piece = { offset, bytes };
        keepPiece(file, piece);
        if (length >= SCAN_BYTES) lastScan.set(keyOf(file), piece);
      });
    },
  };
}

/** A file version's key among a job's pieces. */
const keyOf = ({ name, version }: FileVersion) => `${name}\n${version}`;

/** Reads a job has in flight at once. */
const MAX_PARALLEL_READS = 8;

/**
 * The ranges with those of one file that touch or overlap (consecutive records, say) made
 * one, of the same kind (exact or by blocks): fewer requests, and no byte read that was not
 * asked for.
 */
function touchingMerged(ranges: readonly WantedBytes[]): WantedBytes[] {
  const sorted = [...ranges].sort((a, b) => keyOf(a.file).localeCompare(keyOf(b.file)) || Number(a.exact ?? false) - Number(b.exact ?? false) || a.offset - b.offset);
  const merged: WantedBytes[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    const sameKind = last && keyOf(last.file) === keyOf(range.file) && (last.exact ?? false) === (range.exact ?? false);
    if (last && sameKind && range.offset <= last.offset + last.length) {
      last.length = Math.max(last.length, range.offset + range.length - last.offset);
    } else {
      merged.push({ ...range });
    }
  }
  return merged;
}

/** `work` for each item, at most `parallel` at a time; fails as the first failure does. */
async function inTurns<T>(items: readonly T[], parallel: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, lane));
}
