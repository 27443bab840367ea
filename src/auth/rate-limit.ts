/** A token bucket: `perSecond` tokens refill continuously, up to `burst`. */
export interface RateLimiter {
  /** Takes a token; when none is left, the seconds until one is. */
  take(now?: number): { allowed: true } | { allowed: false; retryAfterSeconds: number };
}

export function createRateLimiter(perSecond: number, burst: number): RateLimiter {
  let tokens = burst;
  let updated = performance.now();
  return {
    take(now = performance.now()) {
      tokens = Math.min(burst, tokens + ((now - updated) / 1000) * perSecond);
      updated = now;
      if (tokens >= 1) {
        tokens -= 1;
        return { allowed: true };
      }
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / perSecond)) };
    },
  };
}
