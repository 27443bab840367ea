/**
 * A key's limits, the step after its own rules (docs/configuration.md, "Keys", "Quotas and
 * usage"), asked of the limit store in one call (limits/limit-store.ts): its rate limit (503),
 * its requests in progress (503), its quota (429), in that order, so that a request refused
 * for the first two costs none of the quota. A request is counted in the key's use when it is
 * accepted, so that concurrent requests can never pass the quota together, and given back when
 * its answer turns out not to count. Its place among the key's requests in progress is held
 * until its answer is written when admission admitted it (a client that does not read holds
 * it), else until its answer is made.
 */
import type { MiddlewareHandler } from 'hono';
import { countsAsUse, type QuotaReached } from '../auth/usage-counter.ts';
import { QuotaExceededError, withoutStack } from '../errors.ts';
import { isRefused, type LimitStore, type Refused } from '../limits/limit-store.ts';
import { refusal } from './admission.ts';
import type { AppEnv } from './context.ts';

/** The key's every limit, for the routes whose requests count as its use. */
export function keyLimits(store: LimitStore): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { id, rateLimit, maxConcurrent, quota } = c.get('grant');
    const taken = await store.take(id, { rateLimit, maxConcurrent, count: true, quota });
    if (isRefused(taken)) throw refusedFor(taken);
    try {
      await next();
    } catch (error) {
      // Hono makes an answer of an Error thrown below; what else is thrown passes here, and is no answer.
      taken.release(false);
      throw error;
    }
    const counted = countsAsUse(c.res.status);
    const written = c.get('answerWritten');
    if (written) void written.then(() => taken.release(counted));
    else taken.release(counted);
  };
}

/** The key's rate limit alone, for what costs no quota (GET /REST/v1/usage). */
export function keyRateLimit(store: LimitStore): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { id, rateLimit } = c.get('grant');
    if (rateLimit) {
      const taken = await store.take(id, { rateLimit, count: false });
      if (isRefused(taken)) throw refusedFor(taken);
    }
    await next();
  };
}

/** The answer to a refusal: 503 for a rate limit, requests in progress or an unreachable store (counted by reason in /metrics), 429 for a quota. */
export function refusedFor(refused: Refused): Error {
  switch (refused.refused) {
    case 'rate_limit':
      return refusal('The rate limit of this access key was reached; retry later.', 'rate_limit', refused.retryAfterSeconds);
    case 'key_concurrency':
      return refusal(
        `This access key has ${refused.inProgress} requests in progress, the most it may have at once; retry when one has finished.`,
        'key_concurrency',
      );
    case 'quota':
      return quotaExceeded(refused.reached, refused.now);
    case 'limit_store':
      return refusal('The store of the access keys’ limits (limits.store) cannot be reached; retry shortly.', 'limit_store');
  }
}

/** The 429: which quota, when it resets (ISO 8601, UTC), and Retry-After to then. No stack: a key past its quota may send thousands. */
function quotaExceeded({ period, quota, resetsAt }: QuotaReached, now: number): QuotaExceededError {
  const when = period === 'day' ? 'today' : 'this month';
  const message = `This access key has made the ${quota.toLocaleString('en-US')} requests its quota allows ${when} (UTC); it may make more from ${isoSeconds(resetsAt)}. GET /REST/v1/usage shows its counts.`;
  return withoutStack(() => new QuotaExceededError(message, Math.max(1, Math.ceil((resetsAt - now) / 1000))));
}

/** ISO 8601 in UTC to the second: 2026-11-29T00:00:00Z. */
export const isoSeconds = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
