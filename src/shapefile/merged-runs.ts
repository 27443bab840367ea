/**
 * Byte ranges read together: many records (or rows) a request needs, in file order, become
 * a few large reads instead of one read each (a system call each from a local folder, a
 * round trip each from a remote source). A gap between two ranges is read through when it
 * is small, since skipping it would cost another read.
 */

export interface ByteRange {
  offset: number;
  length: number;
}

/** One read that covers ranges `first` … `end` - 1 of the list it was planned from. */
export interface Run extends ByteRange {
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
export function mergedRuns(ranges: readonly ByteRange[], { maxGap, maxSpan }: RunLimits): Run[] {
  const runs: Run[] = [];
  let first = 0;
  while (first < ranges.length) {
    const offset = ranges[first].offset;
    let end = offset + ranges[first].length;
    let next = first + 1;
    for (; next < ranges.length; next++) {
      const range = ranges[next];
      const rangeEnd = Math.max(end, range.offset + range.length);
      // A range before the run's start (a record a file's editor moved to its end) starts a run of its own.
      if (range.offset < offset || range.offset - end > maxGap || rangeEnd - offset > maxSpan) break;
      end = rangeEnd;
    }
    runs.push({ offset, length: end - offset, first, end: next });
    first = next;
  }
  return runs;
}
