/**
 * When the shared limits store stops answering (docs/configuration.md, "Limits shared by
 * instances"): frozen (SIGSTOP: its connections stay open and nothing answers) or stopped
 * (connections refused), every request is still answered within its budget, on this
 * instance's own counts (limits.storeFailure "open", the default) or with a 503 naming the
 * store ("closed"); /ready says degraded and /metrics says the store is down, with one
 * warning in the log per outage. Once it answers again, /ready is ready and the counts are
 * shared again. Two apps in this process on one Redis, and a third that fails closed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { describeAnswer, getFrom } from '../../support/shapeshot-process.ts';
import { startServer, type TestServer } from '../../support/server.ts';
import { until } from '../../support/until.ts';

/** The budget of a request; the store's deadline stays the default 100 ms, far within it. */
const REQUEST_TIMEOUT_MS = 5000;
const OPEN_KEY = 'outage-open-key-0123';
/** Keys whose quota shows, once the store is back, that two instances count as one again. */
const AFTER_FREEZE_KEY = 'outage-after-freeze-0123';
const AFTER_RESTART_KEY = 'outage-after-restart-0123';
const KEYS = [{ key: OPEN_KEY, quota: { perDay: 1000 }, rateLimit: { perSecond: 100, burst: 100 }, maxConcurrent: 50 }, ...[AFTER_FREEZE_KEY, AFTER_RESTART_KEY].map((key) => ({ key, quota: { perDay: 4 } }))];

let redis: RedisServer;
const servers: TestServer[] = [];
let a: TestServer;
let b: TestServer;
let closed: TestServer;

const instance = async (storeFailure: 'open' | 'closed') => {
  const server = await startServer({ keys: KEYS, logLevel: 'warn', limits: { store: redis.url, storeFailure, requestTimeoutMs: REQUEST_TIMEOUT_MS }, render: { workers: 1, maxWaitMs: 60_000 } });
  servers.push(server);
  return server;
};

beforeAll(async () => {
  redis = await startRedisServer();
  [a, b, closed] = await Promise.all([instance('open'), instance('open'), instance('closed')]);
  // Their drawing workers started, and each drew once: what follows is timed against the budget.
  for (const server of [a, b, closed]) {
    await until(async () => (await ready(server)).status === 'ready');
    expect((await image(server, OPEN_KEY)).status).toBe(200);
  }
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await redis.stop();
});

const IMAGE = '/REST/v1/shapefiles/images?file=countries&fid=0&size=32,32&format=png';
const origin = (server: TestServer) => new URL(server.url('/')).origin;
/** An image for `key`, given up on (status 'none') at the request's own budget: an answer that waited on the store past it would be none. */
const image = (server: TestServer, key: string) => getFrom(origin(server), `${IMAGE}&key=${key}`, REQUEST_TIMEOUT_MS);
const ready = async (server: TestServer) => (await fetch(server.url('/ready'))).json() as Promise<{ status: string; degraded?: string[] }>;
const metrics = async (server: TestServer) => (await fetch(server.url('/metrics'))).text();
const logged = (server: TestServer, message: RegExp) => server.log.filter((line) => message.test(line)).length;
const DOWN = /the limits store does not answer/;
const BACK = /the limits store answers again/;

/** Several images of OPEN_KEY on each open instance, each answered 200 within its budget. */
async function servedOnBoth(): Promise<void> {
  const answers = await Promise.all([a, b, a, b, a, b].map((server) => image(server, OPEN_KEY)));
  for (const answer of answers) expect(answer.status, describeAnswer(answer)).toBe(200);
}

/** Exactly the quota of `key` (4) passes of 8 requests split between a and b: the counts are one again. */
async function sharedAgain(key: string): Promise<void> {
  const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => image(i % 2 === 0 ? a : b, key)));
  expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
}

async function degradedOnBoth(): Promise<void> {
  for (const server of [a, b]) {
    const said = await ready(server);
    expect(said.status).toBe('degraded');
    expect(said.degraded).toEqual([`the limits store (${redis.url}) does not answer: this instance counts the keys' limits on its own`]);
    const text = await metrics(server);
    expect(text).toMatch(/^shapeshot_limit_store_up 0$/m);
    expect(Number(/^shapeshot_limit_store_failures_total (\d+)$/m.exec(text)?.[1])).toBeGreaterThan(0);
  }
}

const readyOnBoth = () => until(async () => (await ready(a)).status === 'ready' && (await ready(b)).status === 'ready');

describe('a store that stops answering', () => {
  it('while frozen: requests are answered within their budget on local counts, /ready is degraded, one warning; thawed, counts are shared again', async () => {
    expect(await metrics(a)).toMatch(/^shapeshot_limit_store_up 1$/m);
    redis.freeze();
    await servedOnBoth();
    await servedOnBoth();
    await degradedOnBoth();
    for (const server of [a, b]) expect(logged(server, DOWN)).toBe(1);

    redis.thaw();
    await readyOnBoth();
    for (const server of [a, b]) {
      expect(logged(server, BACK)).toBe(1);
      expect(await metrics(server)).toMatch(/^shapeshot_limit_store_up 1$/m);
    }
    await sharedAgain(AFTER_FREEZE_KEY);
  });

  it('while stopped: requests are answered on local counts, /ready is degraded; started again (empty), counts are shared again', async () => {
    await redis.stop();
    await servedOnBoth();
    await degradedOnBoth();
    for (const server of [a, b]) expect(logged(server, DOWN)).toBe(2);

    await redis.start();
    await readyOnBoth();
    await sharedAgain(AFTER_RESTART_KEY);
  });

  it('with limits.storeFailure "closed": refuses with 503 naming the store while it does not answer, serves once it does', async () => {
    expect((await image(closed, OPEN_KEY)).status).toBe(200);
    redis.freeze();
    try {
      const refused = await image(closed, OPEN_KEY);
      expect(refused.status, describeAnswer(refused)).toBe(503);
      expect(describeAnswer(refused)).toContain('The store of the access keys’ limits (limits.store) cannot be reached; retry shortly.');
      expect(refused.status !== 'none' && refused.headers['retry-after']).toBe('1');
      expect((await ready(closed)).degraded).toEqual([`the limits store (${redis.url}) does not answer: this instance refuses the keys' requests (limits.storeFailure "closed")`]);
      expect(await metrics(closed)).toMatch(/^shapeshot_requests_rejected_total\{reason="limit_store"\} [1-9]/m);
    } finally {
      redis.thaw();
    }
    await until(async () => (await ready(closed)).status === 'ready');
    expect((await image(closed, OPEN_KEY)).status).toBe(200);
  });
});
