/**
 * Readings shared by requests (src/shapefile/recent-readings.ts), on vitest's fake clock: a
 * reading under way or younger than its age is shared; with a stale window, an older one is
 * given at once while one new reading is made in the background, and one older than both is
 * waited for; a seed never replaces a newer reading.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recentReadings } from '../../src/shapefile/recent-readings.ts';

beforeEach(() => vi.useFakeTimers({ toFake: ['performance'] }));
afterEach(() => vi.useRealTimers());

/** A reading that counts its calls and answers with the call's number, at once. */
function counted() {
  let calls = 0;
  return { read: async () => ++calls, calls: () => calls };
}

describe('recent readings', () => {
  it('share one reading while it is young, and read again once it is old', async () => {
    const readings = recentReadings<number>(1000);
    const { read, calls } = counted();
    expect(await Promise.all([readings.get('a', read), readings.get('a', read)])).toEqual([1, 1]);
    vi.advanceTimersByTime(999);
    expect(await readings.get('a', read)).toBe(1);
    vi.advanceTimersByTime(2);
    expect(await readings.get('a', read)).toBe(2);
    expect(calls()).toBe(2);
  });

  it('with a stale window, give an old reading at once while one new reading is made, and wait past the window', async () => {
    const readings = recentReadings<number>(1000, 1000);
    const { read, calls } = counted();
    await readings.get('a', read);
    vi.advanceTimersByTime(1500);
    // Past its age, within the window: the old reading, and one background reading for both asks.
    expect(await Promise.all([readings.get('a', read), readings.get('a', read)])).toEqual([1, 1]);
    expect(calls()).toBe(2);
    expect(await readings.get('a', read)).toBe(2);
    vi.advanceTimersByTime(2001);
    // Past the window: waited for.
    expect(await readings.get('a', read)).toBe(3);
  });

  it('never give a stale reading to a caller that asks for the disk as it is now', async () => {
    const readings = recentReadings<number>(1000, 1000);
    const { read } = counted();
    await readings.get('a', read);
    vi.advanceTimersByTime(10);
    expect(await readings.get('a', read, 0)).toBe(2);
  });

  it('take a seed as a reading made when it says, unless a newer one is held', async () => {
    const readings = recentReadings<number>(1000);
    const { read } = counted();
    vi.advanceTimersByTime(5000);
    readings.seed('a', 10, performance.now());
    expect(await readings.get('a', read)).toBe(10);
    expect(await readings.get('b', read)).toBe(1);
    readings.seed('b', 20, performance.now() - 100);
    expect(await readings.get('b', read)).toBe(1);
  });
});
