/**
 * A key's rate limit (docs/configuration.md, "Keys"): a token bucket, in this instance's memory
 * (limits/local-limits.ts keeps one per key); with limits.store the same rule runs in Redis
 * (limits/redis-scripts.ts).
 */

/** A key's rate limit as configured: `perSecond` tokens refill continuously, up to `burst`. */
export interface RateLimit {
  readonly perSecond: number;
  readonly burst: number;
}

/** A token bucket of a rate limit. */
export interface RateLimiter extends RateLimit {
  /** Takes a token; when none is left, the seconds until one is. */
  take(): { allowed: true } | { allowed: false; retryAfterSeconds: number };
}

/** `clock` gives milliseconds; tests pass their own. */
export function createRateLimiter(perSecond: number, burst: number, clock: () => number = () => performance.now()): RateLimiter {
  let tokens = burst;
  let updated = clock();
  return {
    perSecond,
    burst,
    take() {
      const now = clock();
      tokens = Math.min(burst, tokens + (Math.max(0, now - updated) / 1000) * perSecond);
      updated = now;
      if (tokens >= 1) {
        tokens -= 1;
        return { allowed: true };
      }
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / perSecond)) };
    },
  };
}
