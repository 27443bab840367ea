import { describe, expect, it } from 'vitest';
import { mergedRuns, readMerged } from '../../src/shapefile/merged-runs.ts';

const LIMITS = { maxGap: 10, maxSpan: 100 };
const ranges = (pairs: number[][]) => ({ offsets: pairs.map(([offset]) => offset), lengths: pairs.map(([, length]) => length) });

describe('mergedRuns', () => {
  it('reads ranges closer than the gap together, and starts a new read past it', () => {
    // 10 bytes after the first: read through; 11 bytes after the second: a new read.
    expect(mergedRuns(ranges([[0, 8], [18, 8], [37, 4]]), LIMITS)).toEqual([
      { offset: 0, length: 26, first: 0, end: 2 },
      { offset: 37, length: 4, first: 2, end: 3 },
    ]);
  });

  it('keeps a run within its span, and a range longer than the span is a run of its own', () => {
    expect(mergedRuns(ranges([[0, 60], [60, 60], [120, 300]]), LIMITS).map(({ offset, length }) => [offset, length])).toEqual([[0, 60], [60, 60], [120, 300]]);
  });

  it('starts a new run at a range that lies before the run (a record an editor moved), so every range lies inside its run', () => {
    const moved = ranges([[500, 8], [100, 8], [104, 8], [504, 2]]);
    const runs = mergedRuns(moved, LIMITS);
    for (const run of runs) {
      for (let i = run.first; i < run.end; i++) {
        expect(moved.offsets[i]).toBeGreaterThanOrEqual(run.offset);
        expect(moved.offsets[i] + moved.lengths[i]).toBeLessThanOrEqual(run.offset + run.length);
      }
    }
    expect(runs.map(({ first, end }) => [first, end])).toEqual([[0, 1], [1, 3], [3, 4]]);
  });

  it('covers overlapping and repeated ranges once', () => {
    expect(mergedRuns(ranges([[0, 8], [4, 2], [4, 8]]), LIMITS)).toEqual([{ offset: 0, length: 12, first: 0, end: 3 }]);
  });
});

describe('readMerged', () => {
  const file = Uint8Array.from({ length: 200 }, (_, i) => i);
  const reads: number[][] = [];
  const read = (offset: number, length: number) => {
    reads.push([offset, length]);
    return file.subarray(offset, Math.min(file.length, offset + length));
  };

  it('gives each range its own bytes from a few reads, and what is left of a range past the end', () => {
    const spans = readMerged(read, ranges([[10, 4], [20, 2], [150, 3], [198, 5]]), LIMITS);
    expect(reads).toEqual([[10, 12], [150, 3], [198, 5]]);
    const bytes = spans.map(({ view, at, length }) => Array.from({ length }, (_, i) => view.getUint8(at + i)));
    expect(bytes).toEqual([[10, 11, 12, 13], [20, 21], [150, 151, 152], [198, 199]]);
  });
});
