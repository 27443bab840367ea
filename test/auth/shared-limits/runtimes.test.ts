/**
 * Deno and Bun reach Redis as Node does, through ioredis on their Node compatibility
 * (docs/configuration.md, "Limits shared by instances"): a Deno instance and a Bun instance,
 * each shapeshot as a process of its own, hold a key to one quota between them, go on serving
 * within their budget on their own counts while Redis is frozen, and say so on /ready until it
 * answers again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { describeAnswer, getFrom, startShapeshot, type ShapeshotProcess } from '../../support/shapeshot-process.ts';
import { until } from '../../support/until.ts';

const KEY = 'runtime-shared-key-0123';
const REQUEST_TIMEOUT_MS = 5000;
const IMAGE = `/REST/v1/shapefiles/images?file=countries&fid=0&size=32,32&format=png&key=${KEY}`;

let redis: RedisServer;
let deno: ShapeshotProcess;
let bun: ShapeshotProcess;

beforeAll(async () => {
  redis = await startRedisServer();
  const config = {
    keys: [{ key: KEY, quota: { perDay: 4 } }],
    limits: { store: redis.url, requestTimeoutMs: REQUEST_TIMEOUT_MS },
    render: { workers: 1, maxWaitMs: 60_000 },
  };
  [deno, bun] = await Promise.all([startShapeshot('deno', config), startShapeshot('bun', config)]);
  for (const instance of [deno, bun]) await until(async () => (await readiness(instance)).status === 'ready');
}, 120_000);
afterAll(async () => {
  deno?.stop();
  bun?.stop();
  await redis?.stop();
});

const readiness = async (instance: ShapeshotProcess) => (await fetch(`${instance.origin}/ready`)).json() as Promise<{ status: string; degraded?: string[] }>;
const image = (instance: ShapeshotProcess) => getFrom(instance.origin, IMAGE, REQUEST_TIMEOUT_MS);

describe('a Deno and a Bun instance on one store', () => {
  it('hold a key to one quota between them', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => image(i % 2 === 0 ? deno : bun)));
    expect(answers.map((answer) => answer.status).sort(), answers.map((answer) => describeAnswer(answer, 120)).join('\n')).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
  });

  it('serve on their own counts within their budget while Redis is frozen, and are ready again once it answers', async () => {
    redis.freeze();
    try {
      for (const instance of [deno, bun]) {
        // The quota is used up in Redis; each instance's own count starts afresh.
        const answer = await image(instance);
        expect(answer.status, describeAnswer(answer)).toBe(200);
        expect(await readiness(instance)).toMatchObject({ status: 'degraded', degraded: [expect.stringContaining('the limits store')] });
      }
    } finally {
      redis.thaw();
    }
    for (const instance of [deno, bun]) await until(async () => (await readiness(instance)).status === 'ready');
    expect((await image(deno)).status).toBe(429);
  });
});
