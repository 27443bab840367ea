/**
 * The memory caches of the tile and WMS plugins count each answer's key as well as its
 * bytes (a tile key or a GetMap URL is as long as the operator's template and the view make
 * it): filled with thousands of distinct answers under long keys from a server on loopback,
 * they keep no more answers than their bound holds with the keys counted. Told by the
 * server's request count, not by timing: an answer asked for again either reaches the
 * server or came from the cache. (That the counting matches the heap is
 * test/structures/byte-bounded-cache.test.ts's business.)
 */
import { setMaxListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGetMapSource } from '../../plugins/wms/get-map-source.ts';
import { createTileSource } from '../../plugins/xyz/tile-source.ts';

const CACHE_BYTES = 2 * 1024 * 1024;
const ANSWER_BYTES = 1024;
const ANSWERS = 3000;
const AT_ONCE = 50;

/** One signal for every fetch of a test, fifty at once: not a leak, but Node warns past ten. */
function manyListeners(signal: AbortSignal): AbortSignal {
  setMaxListeners(AT_ONCE * 2, signal);
  return signal;
}

let requests = 0;
/**
 * Every path answers a 1 KB "PNG": its signature and a header declaring 256 × 256 (sources
 * check the declared size), then zeros; the sources do not decode it.
 */
const server = createServer((_request, response) => {
  requests++;
  const body = new Uint8Array(ANSWER_BYTES);
  body.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0, 0, 0, 1, 0]);
  response.writeHead(200, { 'Content-Type': 'image/png' }).end(body);
});
let origin: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A part of a key of 2,000 characters and more: 4,000 bytes at two a character. */
const longPart = (n: number) => `${n}-${'layer'.repeat(400)}`;
/** The most answers the cache may keep when it counts their keys: a key and an answer's bytes each, at the least. */
const MOST_KEPT = Math.floor(CACHE_BYTES / (2 * longPart(0).length + ANSWER_BYTES));

/**
 * How many of the ANSWERS distinct answers `get` fetched are still kept: asked for again,
 * newest first, those that do not reach the server.
 */
async function answersKept(get: (n: number) => Promise<unknown>): Promise<number> {
  for (let first = 0; first < ANSWERS; first += AT_ONCE) {
    await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => get(first + i)));
  }
  let kept = 0;
  for (let n = ANSWERS - 1; n >= 0; n--) {
    const before = requests;
    await get(n);
    if (requests === before) kept++;
    else break;
  }
  return kept;
}

describe('the caches of answers from tile and map servers', () => {
  it('xyz: keeps no more tiles than cacheBytes holds, their keys counted', async () => {
    const tiles = createTileSource({ provider: 'test', userAgent: 'shapeshot-test', timeoutMs: 60_000, retries: 0, cacheBytes: CACHE_BYTES, logger: pino({ level: 'silent' }) });
    const signal = manyListeners(new AbortController().signal);
    const kept = await answersKept((n) => tiles.get(longPart(n), `${origin}/tile/${n}.png`, signal));
    expect(kept).toBeGreaterThan(MOST_KEPT / 2);
    expect(kept).toBeLessThanOrEqual(MOST_KEPT);
  }, 120_000);

  it('wms: keeps no more GetMap answers than cacheBytes holds, their URLs counted', async () => {
    const maps = createGetMapSource({ provider: 'test', userAgent: 'shapeshot-test', format: 'image/png', timeoutMs: 60_000, cacheBytes: CACHE_BYTES });
    const signal = manyListeners(new AbortController().signal);
    const kept = await answersKept((n) => maps.get(`${origin}/wms?LAYERS=${longPart(n)}`, { maxBytes: 1 << 20, size: { width: 256, height: 256 } }, signal));
    expect(kept).toBeGreaterThan(MOST_KEPT / 2);
    expect(kept).toBeLessThanOrEqual(MOST_KEPT);
  }, 120_000);
});
