/** A token bucket: `perSecond` tokens refill continuously, up to `burst`. */
export interface RateLimiter {
  /** The settings it was made with, for the key's usage page. */
  readonly perSecond: number;
  readonly burst: number;
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
