/**
 * A key's limits kept in Redis, shared by every instance that names it in limits.store
 * (docs/configuration.md, "Limits shared by instances"): one script per request takes its
 * token, its place and its count, or says which refuses (redis-scripts.ts); one more at its
 * end frees the place and gives back the count, when there is either. While the store does
 * not answer (redis-link.ts), each request is counted on this instance instead
 * (limits.storeFailure "open") or refused ("closed"); what was taken in one store is given
 * back to the same.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { dayEnds, monthEnds } from '../auth/usage-counter.ts';
import type { LimitRequest, LimitStore, Refused, StoreDown, Taken } from './limit-store.ts';
import type { RedisLink } from './redis-link.ts';
import { RELEASE, TAKE, USAGE } from './redis-scripts.ts';

export interface RedisLimitsOptions {
  /**
   * How long a place among a key's requests in progress is held at most: the time budget
   * and the write stall (limits.requestTimeoutMs + limits.writeStallMs). An instance that
   * dies holding one stops holding it then.
   */
  holdMs: number;
  /** limits.storeFailure */
  failure: 'open' | 'closed';
}

/** The scripts, as ioredis's defineCommand makes them: EVALSHA, and EVAL when Redis does not hold the script yet. */
interface LimitScripts {
  shapeshotTake(...args: (string | number)[]): Promise<number[]>;
  shapeshotRelease(...args: (string | number)[]): Promise<number>;
  shapeshotUsage(id: string): Promise<number[]>;
}

const NOTHING_HELD: Taken = { release: () => undefined };
const STORE_DOWN: StoreDown = { refused: 'limit_store' };

/** The limits in `link`'s Redis; `local` counts while it does not answer. */
export function createRedisLimits(link: RedisLink, local: LimitStore, { holdMs, failure }: RedisLimitsOptions): LimitStore {
  const client = link.client as Redis & LimitScripts;
  client.defineCommand('shapeshotTake', { numberOfKeys: 0, lua: TAKE });
  client.defineCommand('shapeshotRelease', { numberOfKeys: 0, lua: RELEASE });
  client.defineCommand('shapeshotUsage', { numberOfKeys: 0, lua: USAGE });
  // A place's name, unique among every instance's: this one's random part, and a serial number.
  const instance = randomBytes(6).toString('hex');
  let serial = 0;

  const release = (id: string, place: string, giveBack: boolean, day: number, month: number) =>
    void link.attempt((redis) => (redis as Redis & LimitScripts).shapeshotRelease(id, place, giveBack ? 1 : 0, day, month));

  return {
    shared: { described: link.described, up: link.isUp, failures: link.failures, failure },
    async take(id, request) {
      const { rateLimit, maxConcurrent, count, quota } = request;
      if (!rateLimit && maxConcurrent === undefined && !count) return NOTHING_HELD;
      const place = maxConcurrent === undefined ? '' : `${instance}:${++serial}`;
      const args = [id, rateLimit?.perSecond ?? 0, rateLimit?.burst ?? 0, maxConcurrent ?? 0, holdMs, place, count ? 1 : 0, quota?.perDay ?? 0, quota?.perMonth ?? 0];
      // A late answer took what no request will give back: given back when it comes.
      const undo = ([outcome, day, month]: number[]) => outcome === 0 && release(id, place, count, day, month);
      const reply = await link.attempt(() => client.shapeshotTake(...args), undo);
      if (reply === undefined) return failure === 'open' ? local.take(id, request) : STORE_DOWN;
      return outcomeOf(reply, id, place, request, release);
    },
    async usage(id) {
      const reply = await link.attempt(() => client.shapeshotUsage(id));
      if (reply === undefined) return failure === 'open' ? local.usage(id) : STORE_DOWN;
      const [dayCount, monthCount, day, month] = reply;
      return { day: { count: dayCount, resetsAt: dayEnds(day) }, month: { count: monthCount, resetsAt: monthEnds(month) } };
    },
    close: () => link.close(),
  };
}

/** The TAKE script's answer as the interface says it. */
function outcomeOf(
  reply: number[],
  id: string,
  place: string,
  { count }: LimitRequest,
  release: (id: string, place: string, giveBack: boolean, day: number, month: number) => void,
): Taken | Refused {
  switch (reply[0]) {
    case 0: {
      const [, day, month] = reply;
      if (place === '' && !count) return NOTHING_HELD;
      let released = false;
      return {
        release(counted) {
          if (released || (place === '' && counted)) return;
          released = true;
          release(id, place, count && !counted, day, month);
        },
      };
    }
    case 1:
      return { refused: 'rate_limit', retryAfterSeconds: reply[1] };
    case 2:
      return { refused: 'key_concurrency', inProgress: reply[1] };
    default: {
      const [, period, quota, day, month, now] = reply;
      return { refused: 'quota', reached: period === 1 ? { period: 'day', quota, resetsAt: dayEnds(day) } : { period: 'month', quota, resetsAt: monthEnds(month) }, now };
    }
  }
}
