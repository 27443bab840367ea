/**
 * The one timer that finds stalled answers: when it drops one (not before writeStallMs
 * without progress, by a quarter more), which it leaves alone, and that it stops when it
 * has nothing to watch. Its clock is the timers', faked here: what it decides depends only
 * on how many looks saw no progress.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StallWatch, WatchedWrite } from '../../src/runtime/stall-watch.ts';

const STALL_MS = 1000;

class Write extends WatchedWrite {
  stalls = 0;
  constructor(readonly mark: () => number | undefined) {
    super();
  }
  progressMark() {
    return this.mark();
  }
  stalled() {
    this.stalls++;
  }
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the stall watch', () => {
  it('drops a write that makes no progress between writeStallMs and 1.25 × writeStallMs after its last, once', () => {
    const onStall = vi.fn();
    const watch = new StallWatch(STALL_MS, onStall);
    let sent = 0;
    const write = new Write(() => 1_000_000 - sent);
    watch.watch(write);
    vi.advanceTimersByTime(STALL_MS);
    sent += 10; // progress, seen at the next look (1.25 s)
    vi.advanceTimersByTime(STALL_MS + 200);
    expect(write.stalls).toBe(0);
    vi.advanceTimersByTime(STALL_MS / 4);
    expect([write.stalls, onStall.mock.calls.length]).toEqual([1, 1]);
    vi.advanceTimersByTime(10 * STALL_MS);
    expect(write.stalls).toBe(1);
  });

  it('leaves alone a write whose client takes bytes, however slowly, and one the client is not waited on for', () => {
    const watch = new StallWatch(STALL_MS);
    let sent = 0;
    const slow = new Write(() => 1_000_000 - sent++);
    const making = new Write(() => undefined);
    watch.watch(slow);
    watch.watch(making);
    vi.advanceTimersByTime(20 * STALL_MS);
    expect([slow.stalls, making.stalls]).toEqual([0, 0]);
  });

  it('forgets a write that is done, and stops its timer once nothing is watched', () => {
    const watch = new StallWatch(STALL_MS);
    const write = new Write(() => 5);
    watch.watch(write);
    expect(vi.getTimerCount()).toBe(1);
    watch.forget(write);
    vi.advanceTimersByTime(2 * STALL_MS);
    expect([write.stalls, vi.getTimerCount()]).toEqual([0, 0]);
  });
});
