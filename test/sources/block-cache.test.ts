import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isDataSourceUnavailable } from '../../src/plugin-contract/data-source-errors.ts';
import { createBlockCache } from '../../src/sources/block-cache.ts';
import { createHttpSource } from '../../src/sources/http-source.ts';
import { readBudget } from '../../src/sources/read-budget.ts';
import { SourceBudgetError } from '../../src/sources/source-errors.ts';
import { startRangeServer, type RangeServer } from '../support/range-server.ts';

/**
 * The block cache and the remote reads under it, against a loopback server that counts
 * the requests it receives and holds, drops or fails them on the test's word: what reaches
 * the server is what a real object store would be asked.
 */
const BLOCK = 64 * 1024;
const FILE = new Uint8Array(5 * BLOCK + 123).map((_, i) => (i * 7 + (i >> 9)) & 0xff);

let server: RangeServer;
beforeEach(async () => {
  server = await startRangeServer({ 'big.shp': FILE });
});
afterEach(() => server.stop());

const sourceOn = (timeoutMs = 10_000) => createHttpSource({ url: server.url, timeoutMs });
const VERSION = async (source: ReturnType<typeof sourceOn>) => (await source.stat('big.shp', AbortSignal.timeout(10_000)))!.version;

describe('the block cache', () => {
  it('reads exactly the bytes asked, across blocks, and up to the end of the file', async () => {
    const source = sourceOn();
    const version = await VERSION(source);
    const cache = createBlockCache({ maxBytes: 8 << 20 });
    const signal = new AbortController().signal;
    for (const [offset, length] of [
      [0, 100],
      [BLOCK - 10, 20],
      [BLOCK * 2 + 5, BLOCK * 2],
      [FILE.length - 50, 50],
      [FILE.length - 50, 5000],
      [FILE.length + 10, 10],
    ]) {
      const bytes = await cache.read({ source, name: 'big.shp', version, offset, length, signal });
      expect(bytes).toEqual(FILE.slice(offset, offset + length));
    }
  });

  it('makes one request for two reads of the same block at the same time, and none for a block it holds', async () => {
    const source = sourceOn();
    const version = await VERSION(source);
    server.behave('hold');
    const cache = createBlockCache({ maxBytes: 8 << 20 });
    const signal = new AbortController().signal;
    const arrived = server.nextRequest();
    const first = cache.read({ source, name: 'big.shp', version, offset: 10, length: 100, signal });
    const second = cache.read({ source, name: 'big.shp', version, offset: 500, length: 100, signal });
    (await arrived).release();
    expect(await first).toEqual(FILE.slice(10, 110));
    expect(await second).toEqual(FILE.slice(500, 600));
    server.behave('answer');
    expect(await cache.read({ source, name: 'big.shp', version, offset: 1000, length: 8, signal })).toEqual(FILE.slice(1000, 1008));
    const reads = server.received.filter((request) => request.method === 'GET');
    expect(reads.map((request) => request.range)).toEqual([`bytes=0-${BLOCK - 1}`]);
  });

  it('asks for three adjacent missing blocks in one range request, and only for the blocks it misses', async () => {
    const source = sourceOn();
    const version = await VERSION(source);
    const cache = createBlockCache({ maxBytes: 8 << 20 });
    const signal = new AbortController().signal;
    await cache.read({ source, name: 'big.shp', version, offset: BLOCK + 1, length: 3 * BLOCK - 2, signal });
    // Blocks 0 and 4 are missing, 1–3 held: two requests, one block each.
    await cache.read({ source, name: 'big.shp', version, offset: 0, length: 5 * BLOCK, signal });
    const ranges = server.received.filter((request) => request.method === 'GET').map((request) => request.range);
    expect(ranges).toEqual([`bytes=${BLOCK}-${4 * BLOCK - 1}`, `bytes=0-${BLOCK - 1}`, `bytes=${4 * BLOCK}-${5 * BLOCK - 1}`]);
  });

  it('stops a request at its byte budget before fetching past it, naming the limit; held blocks cost nothing', async () => {
    const source = sourceOn();
    const version = await VERSION(source);
    const cache = createBlockCache({ maxBytes: 8 << 20 });
    const signal = new AbortController().signal;
    const budget = readBudget(2 * BLOCK);
    await cache.read({ source, name: 'big.shp', version, offset: 0, length: 2 * BLOCK, signal, budget });
    await cache.read({ source, name: 'big.shp', version, offset: 0, length: 2 * BLOCK, signal, budget });
    const refused = cache.read({ source, name: 'big.shp', version, offset: 2 * BLOCK, length: 10, signal, budget });
    await expect(refused).rejects.toThrow(SourceBudgetError);
    await expect(refused).rejects.toThrow(/more than 131072 bytes from data source http:\/\/127\.0\.0\.1:\d+\/ \(limits\.maxSourceBytes\)/);
    expect(budget.spent).toBe(2 * BLOCK);
    expect(server.received.filter((request) => request.method === 'GET')).toHaveLength(1);
  });

  it('stops reading when the signal fires while the server holds the request, and asks nothing more', async () => {
    const source = sourceOn();
    const version = await VERSION(source);
    server.behave('hold');
    const cache = createBlockCache({ maxBytes: 8 << 20 });
    const controller = new AbortController();
    const arrived = server.nextRequest();
    const read = cache.read({ source, name: 'big.shp', version, offset: 0, length: 3 * BLOCK, signal: controller.signal });
    const held = await arrived;
    controller.abort(new Error('the client went away'));
    await expect(read).rejects.toThrow('the client went away');
    // The server sees its client go: the fetch itself was stopped, not only the wait for it.
    await held.clientGone;
    expect(server.received.filter((request) => request.method === 'GET')).toHaveLength(1);
  });

  it('goes on fetching a shared block for the read that still waits when another read stops', async () => {
    const source = sourceOn();
    const version = await VERSION(source);
    server.behave('hold');
    const cache = createBlockCache({ maxBytes: 8 << 20 });
    const leaving = new AbortController();
    const arrived = server.nextRequest();
    const left = cache.read({ source, name: 'big.shp', version, offset: 0, length: 10, signal: leaving.signal });
    const staying = cache.read({ source, name: 'big.shp', version, offset: 20, length: 10, signal: new AbortController().signal });
    const held = await arrived;
    leaving.abort(new Error('gone'));
    await expect(left).rejects.toThrow('gone');
    held.release();
    expect(await staying).toEqual(FILE.slice(20, 30));
  });
});

describe('a remote read', () => {
  it('is tried once more after a timeout, and then answers', async () => {
    server.behave('never', 'answer');
    const source = sourceOn(300);
    const bytes = await source.read('big.shp', 0, 10, new AbortController().signal);
    expect(bytes).toEqual(FILE.slice(0, 10));
    expect(server.received).toHaveLength(2);
  });

  it('fails after a second timeout with the unavailable error naming the source', async () => {
    server.behave('never');
    const source = sourceOn(300);
    const read = source.read('big.shp', 0, 10, new AbortController().signal);
    await expect(read).rejects.toSatisfy(isDataSourceUnavailable);
    await expect(read).rejects.toThrow(`Data source ${server.url} is unavailable: no answer within 300 ms (tried 2 times).`);
    expect(server.received).toHaveLength(2);
  });

  it('is tried once more after a 500, but not after an answer that is no range', async () => {
    server.behave('fail', 'answer');
    const source = sourceOn();
    expect(await source.read('big.shp', 3, 4, new AbortController().signal)).toEqual(FILE.slice(3, 7));
    expect(server.received).toHaveLength(2);
    server.behave('whole');
    await expect(source.read('big.shp', 3, 4, new AbortController().signal)).rejects.toThrow(/with the whole file \(200, not 206\); it must support HTTP range requests/);
    expect(server.received).toHaveLength(3);
  });
});
