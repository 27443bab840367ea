/**
 * A key's limits counted in this instance's memory: the store without limits.store, and the
 * one a shared store falls back to while it cannot be reached (docs/configuration.md,
 * "Limits shared by instances"). Everything is kept by the key's id (KeyGrant.id), so that
 * a reload that renames a key or changes its rules keeps its counts; a rate limit whose
 * settings changed starts a full bucket.
 */
import { createRateLimiter, type RateLimit, type RateLimiter } from '../auth/rate-limit.ts';
import { createUsageCounter, isReceipt, type Receipt } from '../auth/usage-counter.ts';
import type { LimitRequest, LimitStore, Refused, Taken } from './limit-store.ts';

/** `clock` gives milliseconds since the epoch, the days and months are counted by; tests pass their own. */
export function createLocalLimits(clock: () => number = Date.now): LimitStore {
  const buckets = new Map<string, RateLimiter>();
  const inProgress = new Map<string, number>();
  const counter = createUsageCounter();

  const bucket = (id: string, { perSecond, burst }: RateLimit): RateLimiter => {
    let found = buckets.get(id);
    if (found === undefined || found.perSecond !== perSecond || found.burst !== burst) {
      found = createRateLimiter(perSecond, burst);
      buckets.set(id, found);
    }
    return found;
  };

  const takeNow = (id: string, { rateLimit, maxConcurrent, count, quota }: LimitRequest): Taken | Refused => {
    const token = rateLimit && bucket(id, rateLimit).take();
    if (token && !token.allowed) return { refused: 'rate_limit', retryAfterSeconds: token.retryAfterSeconds };
    const held = inProgress.get(id) ?? 0;
    if (maxConcurrent !== undefined && held >= maxConcurrent) return { refused: 'key_concurrency', inProgress: held };
    let receipt: Receipt | undefined;
    if (count) {
      const now = clock();
      const taken = counter.take(id, quota, now);
      if (!isReceipt(taken)) return { refused: 'quota', reached: taken, now };
      receipt = taken;
    }
    if (maxConcurrent !== undefined) inProgress.set(id, held + 1);
    let released = false;
    return {
      release(counted) {
        if (released) return;
        released = true;
        if (maxConcurrent !== undefined) inProgress.set(id, inProgress.get(id)! - 1);
        if (receipt && !counted) counter.giveBack(receipt);
      },
    };
  };

  return {
    take: async (id, request) => takeNow(id, request),
    usage: async (id) => counter.usage(id, clock()),
    close: async () => undefined,
  };
}
