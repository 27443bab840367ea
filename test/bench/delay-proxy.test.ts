import { afterEach, describe, expect, it } from 'vitest';
import { startDelayProxy, type DelayProxy } from '../../bench/delay-proxy.ts';
import { createS3Source } from '../../src/sources/s3-source.ts';
import { startRangeServer, type RangeServer } from '../support/range-server.ts';
import { S3RVER_CREDENTIALS, startS3Server } from '../support/s3-server.ts';
import { removeTempDirs } from '../support/temp-dir.ts';

/**
 * The benchmark's delaying proxy: it forwards range requests untouched and holds each one
 * before the target sees it. Shown by events (the proxy says it holds the request while the
 * target has received nothing), never by timing.
 */
let target: RangeServer;
let proxy: DelayProxy;
afterEach(async () => {
  await proxy?.stop();
  await target?.stop();
  removeTempDirs();
});

describe('the delay proxy', () => {
  it('holds each request before forwarding it, Range header and all, and passes the answer back', async () => {
    const file = new Uint8Array(1000).map((_, i) => i & 0xff);
    target = await startRangeServer({ 'f.shp': file });
    const holds: { range: string | undefined; delayMs: number; targetHadSeen: number }[] = [];
    proxy = await startDelayProxy({
      target: target.url,
      delayMs: 50,
      onHold: (request, delayMs) => holds.push({ range: request.headers.range, delayMs, targetHadSeen: target.received.length }),
    });
    const response = await fetch(`${proxy.url}/f.shp`, { headers: { range: 'bytes=100-199' } });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(file.slice(100, 200));
    expect(holds).toEqual([{ range: 'bytes=100-199', delayMs: 50, targetHadSeen: 0 }]);
    expect(target.received.map((request) => [request.path, request.range])).toEqual([['/f.shp', 'bytes=100-199']]);
  });

  it('lets a SigV4-signed S3 read through to s3rver: the signature made for the proxy verifies there', async () => {
    const s3 = await startS3Server();
    try {
      await s3.put('p/f.shp', new Uint8Array([9, 8, 7, 6, 5]));
      let held = 0;
      proxy = await startDelayProxy({ target: s3.endpoint, delayMs: 20, onHold: () => held++ });
      const source = createS3Source({ url: `s3://${s3.bucket}/p/`, endpoint: proxy.url, ...S3RVER_CREDENTIALS, env: {} });
      expect(await source.read('f.shp', 1, 3, AbortSignal.timeout(10_000))).toEqual(new Uint8Array([8, 7, 6]));
      expect(held).toBe(1);
    } finally {
      await s3.stop();
    }
  });
});
