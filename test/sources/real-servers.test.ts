import { copyFileSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDataSourceUnavailable, isFileChanged } from '../../src/plugin-contract/data-source-errors.ts';
import type { DataSource } from '../../src/plugin-contract/data-source-plugin.ts';
import { createBlockCache } from '../../src/sources/block-cache.ts';
import { createHttpSource } from '../../src/sources/http-source.ts';
import { createS3Source } from '../../src/sources/s3-source.ts';
import { asServiceError } from '../../src/sources/source-errors.ts';
import { ServiceError } from '../../src/errors.ts';
import { startNginx, type Nginx } from '../support/nginx.ts';
import { S3RVER_CREDENTIALS, startS3Server, type S3Server } from '../support/s3-server.ts';
import { until } from '../support/until.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

/**
 * The three built-in sources against real servers on loopback, nginx and s3rver, holding
 * the same files as a local folder: every sample file in data/ and some GDAL fixtures read
 * at several offsets must equal the local bytes exactly; replaced files get new versions and
 * fail reads of the old one; a stopped server is the 503 naming the source and nothing secret.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHAPEFILE_PART = /\.(shp|shx|dbf|prj|cpg)$/i;
const GDAL_FIXTURES = ['counts', 'attrs_pyshp', 'enc_88591'];
const files = [
  ...readdirSync(join(ROOT, 'data')).filter((name) => SHAPEFILE_PART.test(name)).map((name) => join(ROOT, 'data', name)),
  ...readdirSync(join(ROOT, 'test/fixtures/gdal'))
    .filter((name) => SHAPEFILE_PART.test(name) && GDAL_FIXTURES.includes(name.replace(SHAPEFILE_PART, '')))
    .map((name) => join(ROOT, 'test/fixtures/gdal', name)),
];
const names = files.map((path) => path.slice(path.lastIndexOf('/') + 1));
const BLOCK = 64 * 1024;
const PREFIX = 'data/';


let folder: string;
let nginx: Nginx;
let s3: S3Server;
const signal = () => AbortSignal.timeout(20_000);

beforeAll(async () => {
  folder = makeTempDir('shapeshot-sources-');
  for (const path of files) copyFileSync(path, join(folder, path.slice(path.lastIndexOf('/') + 1)));
  s3 = await startS3Server();
  for (const name of names) await s3.put(`${PREFIX}${name}`, readFileSync(join(folder, name)));
  // An object beside the prefix, which the catalog must not show.
  await s3.put('elsewhere/stray.shp', new Uint8Array(8));
  nginx = await startNginx(folder);
});

afterAll(async () => {
  await nginx?.stop();
  await s3?.stop();
  removeTempDirs();
});

const s3Source = (listPageSize?: number) =>
  createS3Source({ url: `s3://${s3.bucket}/${PREFIX}`, endpoint: s3.endpoint, ...S3RVER_CREDENTIALS, region: 'us-east-1', listPageSize, env: {} });

const kinds: { kind: string; make: () => DataSource }[] = [
  { kind: 'nginx', make: () => createHttpSource({ url: nginx.url }) },
  { kind: 's3rver', make: () => s3Source() },
];

/** Offsets and lengths that cover a file's start, middle and end, and a range across a block boundary. */
function rangesOf(size: number): [number, number][] {
  const ranges: [number, number][] = [
    [0, Math.min(100, size)],
    [Math.floor(size / 2), Math.min(37, size - Math.floor(size / 2))],
    [Math.max(0, size - 8), Math.min(8, size)],
    [Math.max(0, size - 3), 100],
  ];
  if (size > BLOCK + 100) ranges.push([BLOCK - 100, 200]);
  if (size > 3 * BLOCK) ranges.push([BLOCK / 2, 2 * BLOCK]);
  return ranges;
}

describe.each(kinds)('the $kind source', ({ make }) => {
  it('lists every file with its size and a version, and nothing beside its folder', async () => {
    const listed = await make().list(signal());
    const sizes = Object.fromEntries(listed.map((entry) => [entry.name, entry.size]));
    expect(sizes).toEqual(Object.fromEntries(names.map((name) => [name, readFileSync(join(folder, name)).length])));
    expect(listed.every((entry) => entry.version.length > 0)).toBe(true);
  });

  it('reads the exact bytes of every file at its start, middle and end, directly and through the block cache', async () => {
    const source = make();
    const cache = createBlockCache({ maxBytes: 32 << 20 });
    const listed = new Map((await source.list(signal())).map(({ name, ...stat }) => [name, stat]));
    for (const name of names) {
      const local = new Uint8Array(readFileSync(join(folder, name)));
      const { version } = listed.get(name)!;
      // A listing's entry is taken as the file's stat (source-catalog.ts): all of it must agree, Last-Modified included.
      expect(await source.stat(name, signal())).toEqual(listed.get(name));
      for (const [offset, length] of rangesOf(local.length)) {
        const expected = local.slice(offset, offset + length);
        expect(await source.read(name, offset, length, signal(), version), `${name} at ${offset}`).toEqual(expected);
        expect(await cache.read({ source, name, version, offset, length, signal: signal() }), `${name} at ${offset}, cached`).toEqual(expected);
      }
    }
  });

  it('says a file it does not have is not there', async () => {
    expect(await make().stat('no-such.shp', signal())).toBeUndefined();
    await expect(make().read('no-such.shp', 0, 10, signal())).rejects.toSatisfy(isFileChanged);
  });
});

describe('reads through the block cache, as nginx counts them', () => {
  it('ask for three adjacent blocks in one range request, and for nothing the cache holds', async () => {
    // An nginx of its own: nginx logs a request after answering it, so another test's line could land among these.
    const own = await startNginx(folder);
    try {
      const source = createHttpSource({ url: own.url });
      const version = (await source.stat('countries.shp', signal()))!.version;
      const cache = createBlockCache({ maxBytes: 8 << 20 });
      const read = (offset: number, length: number) => cache.read({ source, name: 'countries.shp', version, offset, length, signal: signal() });
      expect(await read(100, 3 * BLOCK - 200)).toEqual(new Uint8Array(readFileSync(join(folder, 'countries.shp'))).slice(100, 3 * BLOCK - 100));
      await read(BLOCK + 7, 1000);
      await until(() => own.requests().length >= 2);
      expect(own.requests()).toEqual([
        { method: 'HEAD', uri: '/files/countries.shp', range: '-', status: 200 },
        { method: 'GET', uri: '/files/countries.shp', range: `bytes=0-${3 * BLOCK - 1}`, status: 206 },
      ]);
    } finally {
      await own.stop();
    }
  });
});

describe('a file replaced on the server', () => {
  /** Flips the last byte of the file (size unchanged, so only the time or the ETag can tell); returns the new content. */
  const replace = async (kind: string, name: string): Promise<Uint8Array> => {
    const changed = new Uint8Array(readFileSync(join(folder, name)));
    changed[changed.length - 1] ^= 0xff;
    if (kind === 's3rver') {
      await s3.put(`${PREFIX}${name}`, changed);
      return changed;
    }
    writeFileSync(join(folder, name), changed);
    // A time apart from the old one by more than Last-Modified's second.
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(folder, name), later, later);
    return changed;
  };

  it.each(kinds)('on the $kind has a new version, and a read of the old one fails with the changed-file error', async ({ kind, make }) => {
    const name = kind === 's3rver' ? 'counts.dbf' : 'counts.shx';
    const source = make();
    const before = (await source.stat(name, signal()))!;
    const changed = await replace(kind, name);
    const after = (await source.stat(name, signal()))!;
    expect(after.version).not.toBe(before.version);
    expect((await source.list(signal())).find((entry) => entry.name === name)?.version).toBe(after.version);
    await expect(source.read(name, 0, 10, signal(), before.version)).rejects.toSatisfy(isFileChanged);
    expect(await source.read(name, 0, after.size, signal(), after.version)).toEqual(changed);
  });
});

describe('a server that is gone', () => {
  it('nginx: the unavailable error, answered as 503 naming the source', async () => {
    const alone = await startNginx(folder);
    const source = createHttpSource({ url: alone.url, timeoutMs: 2_000 });
    await alone.stop();
    const failure = await source.read('counts.shp', 0, 10, signal()).catch((error: unknown) => error);
    expect(isDataSourceUnavailable(failure)).toBe(true);
    const answered = asServiceError(failure, source.describe(), new AbortController().signal) as ServiceError;
    expect(answered).toBeInstanceOf(ServiceError);
    expect([answered.status, answered.retryAfterSeconds]).toEqual([503, 5]);
    expect(answered.message).toBe(`Data source ${alone.url} is unavailable: it could not be reached (ECONNREFUSED) (tried 2 times).`);
  });

  it('s3rver: the unavailable error naming the bucket and endpoint, with no credentials or signature', async () => {
    const alone = await startS3Server('gone');
    const source = createS3Source({ url: 's3://gone/shapes/', endpoint: alone.endpoint, ...S3RVER_CREDENTIALS, sessionToken: 'secret-session-token', env: {} });
    await alone.stop();
    for (const attempt of [() => source.list(signal()), () => source.stat('a.shp', signal()), () => source.read('a.shp', 0, 10, signal())]) {
      const failure = await attempt().catch((error: unknown) => error);
      expect(isDataSourceUnavailable(failure)).toBe(true);
      const { status, message } = asServiceError(failure, source.describe(), new AbortController().signal) as ServiceError;
      expect(status).toBe(503);
      expect(message).toMatch(new RegExp(`^Data source s3://gone/shapes/ at ${alone.endpoint} is unavailable: it could not be reached \\(ECONNREFUSED\\)`));
      expect(message).not.toMatch(/S3RVER|secret-session-token|Signature|Credential|X-Amz/i);
    }
  });
});

describe('an S3 catalog of many pages', () => {
  it('is read to its end by continuation tokens', async () => {
    const listed = await s3Source(2).list(signal());
    expect(listed.map((entry) => entry.name).sort()).toEqual([...names].sort());
  });

  it('is refused, naming the bound, past its most keys, as an HTTP listing is past its bytes', async () => {
    const source = createS3Source({ url: `s3://${s3.bucket}/${PREFIX}`, endpoint: s3.endpoint, ...S3RVER_CREDENTIALS, region: 'us-east-1', listPageSize: 2, maxCatalogKeys: 3, env: {} });
    await expect(source.list(signal())).rejects.toSatisfy((error: unknown) => isDataSourceUnavailable(error) && /more than 3 keys/.test((error as Error).message));
  });
});
