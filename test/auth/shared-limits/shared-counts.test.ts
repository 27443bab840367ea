/**
 * Two instances on one Redis hold a key to its limits once, not once each
 * (docs/configuration.md, "Limits shared by instances"): of a burst split between them,
 * exactly the rate limit's tokens, the quota's requests and the key's maxConcurrent pass;
 * /REST/v1/usage shows the shared counts on either; a key revoked by a reload of one is
 * refused by the other, as an unknown key, as soon as Redis says so (and by its re-reading of
 * the set when no message came), and a restart does not bring it back. Two apps in this
 * process, each with its own services and its own connection to Redis.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_KEY } from '../../../src/auth/key-messages.ts';
import { parseConfig } from '../../../src/config/load.ts';
import { reloadConfiguration } from '../../../src/server/reload.ts';
import { allTypes, startTileServer, type TileServer } from '../../map/support.ts';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { startServer, type TestServer } from '../../support/server.ts';
import { until } from '../../support/until.ts';

const RATE_KEY = 'shared-rate-key-0123';
const QUOTA_KEY = 'shared-quota-key-0123';
const BUSY_KEY = 'shared-busy-key-0123';
const KEYS = [
  // Ten tokens, and one more each six minutes: none comes back during the test.
  { key: RATE_KEY, rateLimit: { perSecond: 10 / 3600, burst: 10 } },
  { key: QUOTA_KEY, quota: { perDay: 5 } },
  { key: BUSY_KEY, maxConcurrent: 3 },
];

let redis: RedisServer;
let tiles: TileServer;
const servers: TestServer[] = [];

/** An instance on the shared store; its maps wait for tiles while the test holds them. */
async function instance(keys: Record<string, unknown>[] = KEYS): Promise<TestServer> {
  const slowTiles = { plugin: 'xyz', options: { url: tiles.template, timeoutMs: 60_000, retries: 0, cacheBytes: 0 } };
  const server = await startServer({
    keys,
    // A deadline no loaded machine reaches: these tests are of the counts; the outage has its own.
    limits: { store: redis.url, storeDeadlineMs: 5000 },
    render: { workers: 1, maxWaitMs: 60_000 },
    basemaps: { providers: { slow: slowTiles }, types: allTypes('slow') },
  });
  servers.push(server);
  return server;
}

let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  [redis, tiles] = await Promise.all([startRedisServer(), startTileServer()]);
  [a, b] = await Promise.all([instance(), instance()]);
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await Promise.all([redis.stop(), tiles.close()]);
});

const image = (server: TestServer, key: string) => server.url(`/REST/v1/shapefiles/images?file=countries&fid=0&size=32,32&format=png&key=${key}`);
const map = (server: TestServer, key: string) => server.url(`/REST/v1/shapefiles/map?file=countries&fid=3&size=256,256&format=png&key=${key}`);

interface Answer {
  status: number;
  retryAfter: string | null;
  details: string;
}
async function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url, { headers });
  const body = await response.arrayBuffer();
  const details = response.headers.get('content-type')?.includes('json') ? (JSON.parse(Buffer.from(body).toString()).ErrorDetails as string) : '';
  return { status: response.status, retryAfter: response.headers.get('retry-after'), details };
}
/** `count` requests at once, alternately to each instance. */
const burst = (count: number, url: (server: TestServer) => string) => Promise.all(Array.from({ length: count }, (_, i) => get(url(i % 2 === 0 ? a : b))));
const statuses = (answers: Answer[]) => answers.map((answer) => answer.status).sort();
const usageToday = async (server: TestServer, key: string) =>
  (await (await fetch(server.url(`/REST/v1/usage?format=json&key=${key}`))).json()).Resource.Today.Count as number;

describe('two instances on one store', () => {
  it('let through exactly the rate limit of a key between them', async () => {
    const answers = await burst(20, (server) => image(server, RATE_KEY));
    expect(statuses(answers)).toEqual([...Array(10).fill(200), ...Array(10).fill(503)]);
    for (const refused of answers.filter((answer) => answer.status === 503)) {
      expect(refused.details).toBe('The rate limit of this access key was reached; retry later.');
      expect(Number(refused.retryAfter)).toBeGreaterThan(300);
    }
  });

  it("let through exactly a key's quota between them, then 429 on both; /REST/v1/usage shows the shared count on each, and a 304 is given back", async () => {
    const first = await fetch(image(a, QUOTA_KEY));
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    expect((await get(image(b, QUOTA_KEY), { 'If-None-Match': first.headers.get('etag')! })).status).toBe(304);
    // The 304 was counted on b when accepted, and given back in Redis: a sees one request.
    await until(async () => (await usageToday(a, QUOTA_KEY)) === 1);

    const answers = await burst(12, (server) => image(server, QUOTA_KEY));
    expect(statuses(answers)).toEqual([...Array(4).fill(200), ...Array(8).fill(429)]);
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      expect(refused.details).toMatch(/^This access key has made the 5 requests its quota allows today \(UTC\)/);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    }
    expect([await usageToday(a, QUOTA_KEY), await usageToday(b, QUOTA_KEY)]).toEqual([5, 5]);
  });

  it("hold a key to its maxConcurrent between them, and free each place when its answer is written", async () => {
    tiles.mode = 'held';
    let answered = 0;
    const pending = Array.from({ length: 6 }, (_, i) =>
      get(map(i % 2 === 0 ? a : b, BUSY_KEY)).then((answer) => {
        answered++;
        return answer;
      }),
    );
    // Three are at work (waiting for their tiles), three refused at once: the refusals are all that can answer.
    await until(() => answered === 3);
    tiles.release();
    const answers = await Promise.all(pending);
    expect(statuses(answers)).toEqual([200, 200, 200, 503, 503, 503]);
    for (const refused of answers.filter((answer) => answer.status === 503)) {
      expect(refused.details).toBe('This access key has 3 requests in progress, the most it may have at once; retry when one has finished.');
    }
    // Each place is taken off Redis once its answer is written: none is left behind.
    const busy = `shapeshot:${createHash('sha256').update(BUSY_KEY).digest('hex').slice(0, 16)}:busy`;
    const client = redis.client();
    await until(async () => (await client.exists(busy)) === 0);
  });
});

describe('a key revoked by a reload of one instance', () => {
  const GONE_KEY = 'shared-gone-key-0123';
  const KEPT_KEY = 'shared-kept-key-0123';
  const both = [{ key: GONE_KEY }, { key: KEPT_KEY }];
  let one: TestServer;
  let other: TestServer;
  beforeAll(async () => {
    [one, other] = await Promise.all([instance(both), instance(both)]);
  });

  const reload = (server: TestServer, keys: Record<string, unknown>[]) =>
    reloadConfiguration(server.services.config, () => parseConfig({ ...server.services.config, keys }), server.services);
  /** Resolves when `server`'s copy of the revoked keys next changes. Ask before the change is made. */
  const nextChange = (server: TestServer) => new Promise<void>((resolve) => server.services.revocations!.onChange(resolve));

  it('is refused by the other as an unknown key as soon as Redis tells it, and served again once a reload brings it back', async () => {
    expect((await get(image(other, GONE_KEY))).status).toBe(200);
    const told = nextChange(other);
    reload(one, [{ key: KEPT_KEY }]);
    await told;
    const refused = await get(image(other, GONE_KEY));
    expect(refused).toMatchObject({ status: 401, details: (await get(image(other, 'never-configured-key'))).details });
    expect(refused.details).toBe(UNKNOWN_KEY);
    expect((await get(image(other, KEPT_KEY))).status).toBe(200);

    const back = nextChange(other);
    reload(one, both);
    await back;
    expect((await get(image(other, GONE_KEY))).status).toBe(200);
  });

  it('is refused without a message too: each instance reads the set again every second', async () => {
    const goneId = createHash('sha256').update(GONE_KEY).digest('hex').slice(0, 16);
    const seen = nextChange(other);
    const written = performance.now();
    // As a reload whose message was lost would leave it: in the set, no word on the channel.
    await redis.client().sadd('shapeshot:revoked', goneId);
    await seen;
    // A second, and room for a loaded machine: a reader that waited for messages alone would never see it.
    expect(performance.now() - written).toBeLessThan(5000);
    expect((await get(image(other, GONE_KEY))).status).toBe(401);
  });

  it('stays refused by an instance that starts with a configuration that still holds it', async () => {
    const stale = await instance(both);
    expect((await get(image(stale, GONE_KEY))).status).toBe(401);
    expect((await get(image(stale, KEPT_KEY))).status).toBe(200);
    const back = nextChange(stale);
    reload(one, both);
    await back;
    expect((await get(image(stale, GONE_KEY))).status).toBe(200);
  });
});
