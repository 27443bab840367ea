/**
 * Byte ranges read together: many records (or rows) a request needs, in file order, become
 * a few large reads instead of one read each (a system call each from a local folder, a
 * round trip each from a remote source). A gap between two ranges is read through when it
 * is small, since skipping it would cost another read.
 */
import { readingEach, type Span } from './byte-reader.ts';

/** Ranges as parallel arrays (a million of them are two arrays, not a million objects): range i is `lengths[i]` bytes at `offsets[i]`. */
export interface ByteRanges {
  offsets: ArrayLike<number>;
  lengths: ArrayLike<number>;
}

/** One read that covers ranges `first` … `end` - 1 of the ranges it was planned from. */
export interface Run {
  offset: number;
  length: number;
  first: number;
  end: number;
}

export interface RunLimits {
  /** Unwanted bytes read through between two ranges rather than starting a new read. */
  maxGap: number;
  /** Most bytes one run spans (a single range longer than this is a run of its own). */
  maxSpan: number;
}

/**
 * The runs that read `ranges`, in their order: each run the ranges from its first on, for
 * as long as the next one starts within `maxGap` bytes of the end so far, not before the
 * run's start, and the run stays within `maxSpan` bytes. Ranges sorted by offset make the
 * fewest runs.
 */
export function mergedRuns({ offsets, lengths }: ByteRanges, { maxGap, maxSpan }: RunLimits): Run[] {
  const runs: Run[] = [];
  let first = 0;
  while (first < offsets.length) {
    const offset = offsets[first];
    let end = offset + lengths[first];
    let next = first + 1;
    for (; next < offsets.length; next++) {
      const rangeEnd = Math.max(end, offsets[next] + lengths[next]);
      // A range before the run's start (a record a file's editor moved to its end) starts a run of its own.
      if (offsets[next] < offset || offsets[next] - end > maxGap || rangeEnd - offset > maxSpan) break;
      end = rangeEnd;
    }
    runs.push({ offset, length: end - offset, first, end: next });
    first = next;
  }
  return runs;
}

/**
 * The bytes of each of `ranges`, read by `read` in merged runs: spans of the runs' reads
 * (shorter where the file ends). A remote file's missing runs are asked for all at once.
 */
export function readMerged(read: (offset: number, length: number) => Uint8Array, ranges: ByteRanges, limits: RunLimits): Span[] {
  const runs = mergedRuns(ranges, limits);
  const reads = readingEach(runs, (run) => read(run.offset, run.length));
  const spans: Span[] = new Array(ranges.offsets.length);
  runs.forEach((run, r) => {
    const bytes = reads[r];
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = run.first; i < run.end; i++) {
      const at = ranges.offsets[i] - run.offset;
      spans[i] = { view, at, length: Math.max(0, Math.min(ranges.lengths[i], bytes.length - at)) };
    }
  });
  return spans;
}
