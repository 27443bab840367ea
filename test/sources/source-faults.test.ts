import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShapeType } from '../../src/shapefile/types.ts';
import { withoutTraceId } from '../support/comparable-answer.ts';
import { startNginx } from '../support/nginx.ts';
import { startRangeServer } from '../support/range-server.ts';
import { S3RVER_CREDENTIALS, startS3Server, type S3Server } from '../support/s3-server.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { WGS84_PRJ } from '../support/fixtures.ts';
import { writeRawShapefile } from '../support/raw-shapefile.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { until } from '../support/until.ts';

/**
 * A remote data source's faults and changes, as a client sees them: a file replaced in the
 * bucket is served fresh under a new ETag; one replaced while the service still holds its
 * old version is read again at the new one; a source that goes away is the 503 naming it
 * (and nothing secret) with Retry-After, and /ready names it; a job waiting for bytes lets
 * its worker answer others; a cancelled request's reads stop at the server; two instances on one bucket answer alike, ETags included; a cold
 * feature of a large file is read by three range requests once the listing has had its headers fetched ahead; a file whose
 * .shx entries keep being missed has its .shx read whole in the background.
 */
const DATA = fileURLToPath(new URL('../../data/', import.meta.url));
const PARTS = ['shp', 'shx', 'dbf', 'prj', 'cpg'];
const sample = (name: string, part: string) => new Uint8Array(readFileSync(join(DATA, `${name}.${part}`)));
const savedEnv = { ...process.env };
const servers: TestServer[] = [];
let s3: S3Server;


beforeAll(async () => {
  s3 = await startS3Server();
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey, AWS_REGION: 'us-east-1' });
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await s3?.stop();
  process.env = savedEnv;
  removeTempDirs();
});

async function put(prefix: string, as: string, from: string) {
  for (const part of PARTS) await s3.put(`${prefix}${as}.${part}`, sample(from, part));
}

async function serve(config: Record<string, unknown>): Promise<TestServer> {
  const server = await startServer({ render: { workers: 1 }, ...config });
  servers.push(server);
  return server;
}

const onS3 = (prefix: string, config: Record<string, unknown> = {}) => serve({ dataDir: `s3://${s3.bucket}/${prefix}`, s3: { endpoint: s3.endpoint }, ...config });

async function image(server: TestServer, query: Record<string, string | number>, init?: RequestInit) {
  const params = new URLSearchParams({ key: TEST_KEY, format: 'png', size: '120,160', ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
  const response = await fetch(server.url(`/REST/v1/shapefiles/images?${params}`), init);
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('a remote source whose files change', () => {
  it('serves a file replaced in the bucket between two requests fresh, with a new ETag', async () => {
    await put('replaced/', 'moving', 'countries');
    await put('replaced/', 'borders', 'borders');
    const server = await onS3('replaced/', { fileCheckMs: 0 });
    const before = await image(server, { file: 'moving', fid: 200 });
    expect(before.status).toBe(200);
    await put('replaced/', 'moving', 'borders');
    const after = await image(server, { file: 'moving', fid: 200 });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(after.bytes.equals(before.bytes)).toBe(false);
    expect(after.bytes.equals((await image(server, { file: 'borders', fid: 200 })).bytes)).toBe(true);
  });

  it('reads a file replaced under a version it still holds again, at the new version', async () => {
    await put('stale/', 'moving', 'countries');
    await put('stale/', 'borders', 'borders');
    // The version the service holds stands a minute: the change is met by the worker's read, not by the catalog.
    const server = await onS3('stale/', { fileCheckMs: 60_000 });
    expect((await image(server, { file: 'moving', fid: 0 })).status).toBe(200);
    await put('stale/', 'moving', 'borders');
    // Record 240 lies in a block of the old .shp that was never fetched: its read meets the change.
    const after = await image(server, { file: 'moving', fid: 240 });
    expect(after.status, after.bytes.toString()).toBe(200);
    expect(after.bytes.equals((await image(server, { file: 'borders', fid: 240 })).bytes)).toBe(true);
  });
});

describe('a remote source that fails', () => {
  it('answers 503 naming the source, with Retry-After and no secret; /ready names the source', async () => {
    const own = await startS3Server('going');
    for (const part of PARTS) await own.put(`shapes/countries.${part}`, sample('countries', part));
    const server = await serve({ dataDir: `s3://going/shapes/`, s3: { endpoint: own.endpoint }, fileCheckMs: 0 });
    expect((await image(server, { file: 'countries', fid: 0 })).status).toBe(200);
    const ready = await fetch(server.url('/ready'));
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { source?: string }).source).toBe(`s3://going/shapes/ at ${own.endpoint}`);
    await own.stop();
    const params = new URLSearchParams({ key: TEST_KEY, file: 'countries', fid: '240', format: 'json' });
    const response = await fetch(server.url(`/REST/v1/shapefiles/images?${params}`));
    const text = await response.text();
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(text).toContain(`s3://going/shapes/ at ${own.endpoint}`);
    expect(text).not.toContain(S3RVER_CREDENTIALS.secretAccessKey);
    expect(text).not.toContain('X-Amz');
  });
});

/** The range server holding `names`' files, with a shapeshot-catalog.json listing them. */
function rangeServerOf(...names: string[]) {
  const files: Record<string, Uint8Array> = {};
  for (const name of names) for (const part of PARTS) files[`${name}.${part}`] = sample(name, part);
  const catalog = Object.entries(files).map(([name, bytes]) => ({ name, type: 'file', mtime: 'Wed, 01 May 2024 12:00:00 GMT', size: bytes.length }));
  files['shapeshot-catalog.json'] = new TextEncoder().encode(JSON.stringify(catalog));
  return startRangeServer(files);
}

describe('a job waiting for bytes', () => {
  it("does not hold its worker: the worker's other jobs are answered meanwhile", async () => {
    const source = await rangeServerOf('countries', 'country_centres');
    try {
      const server = await serve({ dataDir: source.url, fileCheckMs: 60_000 });
      expect((await image(server, { file: 'countries', fid: 0 })).status).toBe(200);
      expect((await image(server, { file: 'country_centres', fid: 0 })).status).toBe(200);
      source.behave('hold', 'answer');
      const held = source.nextRequest();
      const waiting = image(server, { file: 'countries', fid: 240 });
      const read = await held;
      // One worker, its job waiting for the held read: another job on it is answered all the same.
      expect((await image(server, { file: 'country_centres', fid: 5 })).status).toBe(200);
      read.release();
      expect((await waiting).status).toBe(200);
    } finally {
      await source.stop();
    }
  });

  it("stops when its request is cancelled, and so do its reads at the server", async () => {
    const source = await rangeServerOf('countries');
    try {
      const server = await serve({ dataDir: source.url, fileCheckMs: 60_000 });
      // Record 239 brings the .dbf block that row 240 lies in; records are read exactly, so record 240 is not fetched yet.
      expect((await image(server, { file: 'countries', fid: 239 })).status).toBe(200);
      // Record 240 is the one read left: its range request is held.
      source.behave('hold');
      const held = source.nextRequest();
      const client = new AbortController();
      const answered = server.nextAnswer('fid=240');
      const request = image(server, { file: 'countries', fid: 240 }, { signal: client.signal }).catch(() => undefined);
      const read = await held;
      expect(read.range).toMatch(/^bytes=/);
      const seen = source.received.length;
      client.abort();
      await read.clientGone;
      await answered;
      await request;
      expect(source.received.length).toBe(seen);
    } finally {
      await source.stop();
    }
  });
});

describe('several instances on one bucket', () => {
  it('give the same answers and the same ETags', async () => {
    await put('shared/', 'countries', 'countries');
    await put('shared/', 'country_centres', 'country_centres');
    const [one, two] = [await onS3('shared/'), await onS3('shared/')];
    const queries: Record<string, string | number>[] = [
      { file: 'countries', fid: 17 },
      { file: 'country_centres', fid: '3,9', format: 'json', includeHotSpots: 1 },
      { file: 'countries', where: "REGION = 'Europe'", singleImage: 1 },
    ];
    for (const query of queries) {
      const [a, b] = [await image(one, query), await image(two, query)];
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
      // Pictures byte for byte; envelopes but for their TraceIds.
      if (a.headers.get('content-type') === 'image/png') expect(b.bytes.equals(a.bytes)).toBe(true);
      else expect(withoutTraceId(b.bytes)).toBe(withoutTraceId(a.bytes));
    }
  });
});

describe('range requests', () => {
  it('read a cold feature of a large file by three small ranges once its headers are fetched ahead, the .shp no further than its record, and a warm one by its record alone', async () => {
    const folder = makeTempDir('shapeshot-ranges-');
    for (const part of PARTS) copyFileSync(join(DATA, `countries.${part}`), join(folder, `countries.${part}`));
    const nginx = await startNginx(folder);
    const rangeOf = (read: { range: string }) => read.range.slice(6).split('-').map(Number);
    const bytesOf = (reads: { range: string }[]) => reads.reduce((sum, read) => sum + rangeOf(read)[1] - rangeOf(read)[0] + 1, 0);
    const gets = () => nginx.requests().filter((request) => request.method === 'GET' && !request.uri.endsWith('/'));
    const shx = sample('countries', 'shx');
    const record = (fid: number) => {
      const view = new DataView(shx.buffer, shx.byteOffset + 100 + 8 * fid, 8);
      const offset = 2 * view.getInt32(0);
      return `bytes=${offset}-${offset + 8 + 2 * view.getInt32(4) - 1}`;
    };
    try {
      const server = await serve({ dataDir: nginx.url });
      // The first request lists the source; the listing has every shapefile's opening bytes fetched ahead, in the background.
      expect((await image(server, { file: 'no-such-file', fid: 0 })).status).toBe(404);
      await until(() => gets().length === PARTS.length);
      const opening = gets();
      expect(opening.map((read) => rangeOf(read)[0])).toEqual(PARTS.map(() => 0));
      expect((await image(server, { file: 'countries', fid: 240 })).status).toBe(200);
      // nginx logs a request once it has answered it: the three reads' lines are waited for, and a fourth would fail the check below.
      await until(() => gets().length >= opening.length + 3);
      const reads = gets().slice(opening.length);
      for (const read of [...opening, ...reads]) {
        expect(read.range).toMatch(/^bytes=\d+-\d+$/);
        expect(read.status).toBe(206);
      }
      // Issue 22's budget for one cold feature: its .shx entry's block, then its record and its .dbf row's block (the deleted flag); under 64 KB with the headers.
      expect(reads.map((read) => read.uri.slice(read.uri.lastIndexOf('.'))).sort()).toEqual(['.dbf', '.shp', '.shx']);
      expect(reads.find((read) => read.uri.endsWith('.shp'))?.range).toBe(record(240));
      expect(bytesOf([...opening, ...reads])).toBeLessThan(64 * 1024);
      // Warm: its neighbour's .shx entry and .dbf row are in the blocks fetched; only its record is read.
      const readsBefore = gets().length;
      expect((await image(server, { file: 'countries', fid: 239 })).status).toBe(200);
      await until(() => gets().length > readsBefore);
      const warm = gets().slice(readsBefore);
      expect(warm.map((read) => `${read.uri.slice(read.uri.lastIndexOf('.'))} ${read.range}`)).toEqual([`.shp ${record(239)}`]);
    } finally {
      await nginx.stop();
    }
  });
  it('reads the whole .shx of a file whose entries keep being missed, in the background, and then a feature costs its record alone', async () => {
    const folder = makeTempDir('shapeshot-index-fill-');
    const features = 20_000; // a .shx of ten 16 KB blocks
    const records = Array.from({ length: features }, (_, i) => ({ shapeType: ShapeType.Point, xy: new Float64Array([i % 200, Math.floor(i / 200)]) }));
    writeRawShapefile(join(folder, 'points'), ShapeType.Point, records, { prj: WGS84_PRJ });
    const shxBytes = 100 + 8 * features;
    const nginx = await startNginx(folder);
    const gets = () => nginx.requests().filter((request) => request.method === 'GET' && !request.uri.endsWith('/'));
    const endOf = (range: string) => Number(range.slice(range.indexOf('-') + 1));
    try {
      const server = await serve({ dataDir: nginx.url });
      // Four features in four blocks of the .shx: four misses of its entries.
      for (const fid of [0, 2_048, 4_096, 6_144]) expect((await image(server, { file: 'points', fid })).status).toBe(200);
      // Read in blocks: the last range asked for reaches the end of the .shx, or past it.
      await until(() => gets().some((read) => read.uri.endsWith('.shx') && endOf(read.range) >= shxBytes - 1));
      const before = gets().length;
      expect((await image(server, { file: 'points', fid: 19_000 })).status).toBe(200);
      await until(() => gets().length > before);
      expect(gets().slice(before).map((read) => read.uri.slice(read.uri.lastIndexOf('.')))).toEqual(['.shp']);
    } finally {
      await nginx.stop();
    }
  });
});
