/**
 * The two limit stores answer alike (docs/configuration.md, "Limits shared by instances"):
 * this instance's memory and a real Redis take a key's rate limit, then its requests in
 * progress, then its quota, in that order, take nothing else from a request they refuse, free
 * a place and give back a count when told, and count by the key's id. The Lua that works out
 * a UTC month in Redis agrees with JavaScript's calendar over four centuries.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthEnds } from '../../../src/auth/usage-counter.ts';
import type { LimitRequest, LimitStore, Refused, Taken } from '../../../src/limits/limit-store.ts';
import { createLocalLimits } from '../../../src/limits/local-limits.ts';
import { connectRedis } from '../../../src/limits/redis-link.ts';
import { createRedisLimits } from '../../../src/limits/redis-limits.ts';
import { MONTH_OF } from '../../../src/limits/redis-scripts.ts';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { until } from '../../support/until.ts';

let redis: RedisServer;
const stores: LimitStore[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await redis.stop();
});

const MAKERS: [string, () => Promise<LimitStore>][] = [
  ['memory', async () => createLocalLimits()],
  [
    'Redis',
    async () => {
      // A deadline no loaded machine reaches: these tests are of the counts, not of an outage.
      const link = await connectRedis(redis.url, { deadlineMs: 5000, failure: 'closed' }, pino({ level: 'silent' }));
      const store = createRedisLimits(link, createLocalLimits(), { holdMs: 60_000, failure: 'closed' });
      stores.push(store);
      return store;
    },
  ],
];

/** Ids unique to each test and store: the stores share one Redis. */
let serial = 0;
const freshId = () => `test${(++serial).toString(16).padStart(12, '0')}`;

const refusal = (outcome: Taken | Refused) => ('refused' in outcome ? outcome.refused : 'taken');
const today = async (store: LimitStore, id: string) => {
  const usage = await store.usage(id);
  if ('refused' in usage) throw new Error('the store refused');
  return usage.day.count;
};

describe.each(MAKERS)('the %s store', (_name, make) => {
  let store: LimitStore;
  beforeAll(async () => {
    store = await make();
  });

  it('refuses for the rate limit first, then the requests in progress, then the quota, taking nothing else from a refused request', async () => {
    const id = freshId();
    const all: LimitRequest = { rateLimit: { perSecond: 1 / 3600, burst: 3 }, maxConcurrent: 1, count: true, quota: { perDay: 1 } };
    const first = await store.take(id, all);
    expect(refusal(first)).toBe('taken');
    // At its one place in progress and its one request of the day: the place refuses.
    expect(await store.take(id, all)).toEqual({ refused: 'key_concurrency', inProgress: 1 });
    (first as Taken).release(true);
    const quota = await store.take(id, all);
    expect(quota).toMatchObject({ refused: 'quota', reached: { period: 'day', quota: 1 } });
    expect(await today(store, id)).toBe(1);
    // Three tokens spent: the rate limit refuses before anything else, and says when one comes back.
    expect(await store.take(id, all)).toEqual({ refused: 'rate_limit', retryAfterSeconds: 3600 });
  });

  it('frees a place and gives back a count when the answer does not count, once', async () => {
    const id = freshId();
    const request: LimitRequest = { maxConcurrent: 2, count: true, quota: { perDay: 2, perMonth: 10 } };
    const [a, b] = (await Promise.all([store.take(id, request), store.take(id, request)])) as Taken[];
    expect(refusal(await store.take(id, request))).toBe('key_concurrency');
    a.release(false);
    a.release(false);
    // Redis is told without the request waiting: its count and place come back soon after.
    await until(async () => (await today(store, id)) === 1);
    const c = await store.take(id, request);
    expect(refusal(c)).toBe('taken');
    expect(refusal(await store.take(id, request))).toBe('key_concurrency');
    b.release(true);
    (c as Taken).release(true);
    await until(async () => refusal(await store.take(id, { maxConcurrent: 2, count: false })) === 'taken');
    expect(await today(store, id)).toBe(2);
  });

  it('refuses a month used up before a day, and says when each starts again', async () => {
    const id = freshId();
    expect(refusal(await store.take(id, { count: true, quota: { perMonth: 1 } }))).toBe('taken');
    const refused = await store.take(id, { count: true, quota: { perDay: 1, perMonth: 1 } });
    expect(refused).toMatchObject({ refused: 'quota', reached: { period: 'month', quota: 1 } });
    const { reached, now } = refused as Extract<Refused, { refused: 'quota' }>;
    const date = new Date(now);
    expect(reached.resetsAt).toBe(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
    const usage = await store.usage(id);
    expect(usage).toMatchObject({ day: { count: 1, resetsAt: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1) } });
  });

  it('keeps a bucket by the key, and starts a full one when its settings change', async () => {
    const id = freshId();
    const one = { rateLimit: { perSecond: 1 / 3600, burst: 1 }, count: false };
    expect(refusal(await store.take(id, one))).toBe('taken');
    expect(refusal(await store.take(id, one))).toBe('rate_limit');
    expect(refusal(await store.take(freshId(), one))).toBe('taken');
  });
});

describe('the month of a day, in the Lua Redis runs', () => {
  it("agrees with JavaScript's UTC calendar on the first and last day of every month from 1970 to 2400", async () => {
    const days: number[] = [];
    for (let month = 0; month < 431 * 12; month++) {
      const first = monthEnds(month - 1) / 86_400_000;
      days.push(first, monthEnds(month) / 86_400_000 - 1);
    }
    const client = redis.client();
    const script = `${MONTH_OF}\nlocal months = {}\nfor i, day in ipairs(ARGV) do months[i] = monthOf(tonumber(day)) end\nreturn months`;
    const months = (await client.eval(script, 0, ...days)) as number[];
    const expected = days.map((day) => {
      const date = new Date(day * 86_400_000);
      return (date.getUTCFullYear() - 1970) * 12 + date.getUTCMonth();
    });
    expect(months).toEqual(expected);
  });
});
