import { describe, expect, it } from 'vitest';
import { mergedRuns } from '../../src/shapefile/merged-runs.ts';

const LIMITS = { maxGap: 10, maxSpan: 100 };

describe('mergedRuns', () => {
  it('reads ranges closer than the gap together, and starts a new read past it', () => {
    const ranges = [
      { offset: 0, length: 8 },
      { offset: 18, length: 8 }, // 10 bytes after the first: read through
      { offset: 37, length: 4 }, // 11 bytes after: a new read
    ];
    expect(mergedRuns(ranges, LIMITS)).toEqual([
      { offset: 0, length: 26, first: 0, end: 2 },
      { offset: 37, length: 4, first: 2, end: 3 },
    ]);
  });

  it('keeps a run within its span, and a range longer than the span is a run of its own', () => {
    const ranges = [
      { offset: 0, length: 60 },
      { offset: 60, length: 60 },
      { offset: 120, length: 300 },
    ];
    expect(mergedRuns(ranges, LIMITS).map(({ offset, length }) => [offset, length])).toEqual([[0, 60], [60, 60], [120, 300]]);
  });

  it('starts a new run at a range that lies before the run (a record an editor moved), so every range lies inside its run', () => {
    const ranges = [
      { offset: 500, length: 8 },
      { offset: 100, length: 8 },
      { offset: 104, length: 8 },
      { offset: 504, length: 2 },
    ];
    const runs = mergedRuns(ranges, LIMITS);
    for (const run of runs) {
      for (const range of ranges.slice(run.first, run.end)) {
        expect(range.offset).toBeGreaterThanOrEqual(run.offset);
        expect(range.offset + range.length).toBeLessThanOrEqual(run.offset + run.length);
      }
    }
    expect(runs.map(({ first, end }) => [first, end])).toEqual([[0, 1], [1, 3], [3, 4]]);
  });

  it('covers overlapping and repeated ranges once', () => {
    expect(mergedRuns([{ offset: 0, length: 8 }, { offset: 4, length: 2 }, { offset: 4, length: 8 }], LIMITS)).toEqual([{ offset: 0, length: 12, first: 0, end: 3 }]);
  });
});
