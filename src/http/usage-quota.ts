/**
 * A key's quota (docs/configuration.md, "Quotas and usage"): each request the key was
 * accepted for is counted before its work, and refused with 429 once the day's or the
 * month's count is at the key's quota; an answer that does not count (a server failure, a
 * 304, a client gone) is given back. After the key's own checks, so that a request its
 * signature, sites or rate limit refuse costs no quota.
 */
import type { MiddlewareHandler } from 'hono';
import { countsAsUse, isReceipt, type QuotaReached, type UsageCounter } from '../auth/usage-counter.ts';
import { QuotaExceededError, withoutStack } from '../errors.ts';
import type { AppEnv } from './context.ts';

/** `clock` gives milliseconds since the epoch; tests pass their own. */
export function countUsage(counter: UsageCounter, clock: () => number = Date.now): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const grant = c.get('grant');
    const now = clock();
    const taken = counter.take(grant.id, grant.quota, now);
    if (!isReceipt(taken)) throw quotaExceeded(taken, now);
    try {
      await next();
    } catch (error) {
      // Hono makes an answer of an Error thrown below; what else is thrown passes here, and is no answer.
      counter.giveBack(taken);
      throw error;
    }
    if (!countsAsUse(c.res.status)) counter.giveBack(taken);
  };
}

/** The 429: which quota, when it resets (ISO 8601, UTC), and Retry-After to then. No stack: a key past its quota may send thousands. */
function quotaExceeded({ period, quota, resetsAt }: QuotaReached, now: number): QuotaExceededError {
  const when = period === 'day' ? 'today' : 'this month';
  const message = `This access key has made the ${quota.toLocaleString('en-US')} requests its quota allows ${when} (UTC); it may make more from ${isoSeconds(resetsAt)}. GET /REST/v1/usage shows its counts.`;
  return withoutStack(() => new QuotaExceededError(message, Math.max(1, Math.ceil((resetsAt - now) / 1000))));
}

/** ISO 8601 in UTC to the second: 2026-11-29T00:00:00Z. */
export const isoSeconds = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
