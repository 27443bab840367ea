import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutTraceId } from '../support/comparable-answer.ts';
import { TEST_KEY, type TestServer } from '../support/server.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { serveFromThreeSources, type ThreeSources } from '../support/three-sources.ts';

/**
 * The service itself (images, maps over the embedded basemap, /ogc pages, where=
 * selections) serving the same files from a local folder, from nginx over HTTP
 * (`dataDir: http://…/`) and from s3rver (`dataDir: s3://bucket/prefix/`, `s3.endpoint`):
 * every answer byte for byte the local folder's, for every sample file and a few GDAL
 * fixtures (answers that are errors too).
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHAPEFILE_PART = /\.(shp|shx|dbf|prj|cpg)$/i;
const GDAL_FIXTURES = ['counts', 'attrs_pyshp', 'enc_88591', 'counts_multipoint'];
const files = [
  ...readdirSync(join(ROOT, 'data')).filter((name) => SHAPEFILE_PART.test(name)).map((name) => join(ROOT, 'data', name)),
  ...readdirSync(join(ROOT, 'test/fixtures/gdal'))
    .filter((name) => SHAPEFILE_PART.test(name) && GDAL_FIXTURES.includes(name.replace(SHAPEFILE_PART, '')))
    .map((name) => join(ROOT, 'test/fixtures/gdal', name)),
];
const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const shapefiles = [...new Set(files.filter((path) => /\.shp$/i.test(path)).map((path) => baseName(path).replace(/\.shp$/i, '')))].sort();


let local: TestServer;
let overHttp: TestServer;
let overS3: TestServer;
let sources: ThreeSources | undefined;

beforeAll(async () => {
  sources = await serveFromThreeSources(files, { render: { workers: 1 } });
  ({ local, overHttp, overS3 } = sources);
}, 60_000);

afterAll(async () => {
  await sources?.stop();
  removeTempDirs();
});

const remotes = (): [string, TestServer][] => [['s3', overS3], ['http', overHttp]];

async function answer(server: TestServer, path: string, query: Record<string, string | number>) {
  const params = new URLSearchParams({ key: TEST_KEY, ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
  const response = await fetch(server.url(`${path}?${params}`));
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, etag: response.headers.get('etag'), type: response.headers.get('content-type'), bytes };
}

/** An /ogc answer with what differs between servers taken out: the server's own origin in its links, the time stamp of a page. */
async function ogc(server: TestServer, path: string, query: Record<string, string | number> = {}) {
  const { status, bytes } = await answer(server, path, query);
  return { status, text: new TextDecoder().decode(bytes).replaceAll(server.url(''), 'ORIGIN').replace(/"timeStamp":"[^"]*",?/, '') };
}

/** A few feature ids of each file, from its /ogc collection: the first, one in the middle, the last. */
async function sampleIds(name: string): Promise<number[]> {
  const { text } = await ogc(local, `/ogc/collections/${name}/items`, { limit: 1000 });
  const { features } = JSON.parse(text) as { features?: { id: number }[] };
  // A file /ogc cannot give in WGS 84 (no CRS) still has its first records.
  const ids = features?.map((feature) => feature.id) ?? [0, 1, 2];
  return [...new Set([ids[0], ids[Math.floor(ids.length / 2)], ids[ids.length - 1]])].filter((id) => id !== undefined);
}

describe('a remote data source serves what the local folder serves, byte for byte', () => {
  it('lists the same collections', async () => {
    const expected = await ogc(local, '/ogc/collections');
    expect(expected.status).toBe(200);
    for (const [, server] of remotes()) expect(await ogc(server, '/ogc/collections')).toEqual(expected);
  });

  it.each(shapefiles)('images of %s', async (name) => {
    for (const fid of await sampleIds(name)) {
      for (const format of ['png', 'json']) {
        const query = { file: name, fid, format, size: '120,160', includeHotSpots: 1 };
        const expected = await answer(local, '/REST/v1/shapefiles/images', query);
        for (const [, server] of remotes()) {
          expectSame(await answer(server, '/REST/v1/shapefiles/images', query), expected);
        }
      }
    }
  });

  it.each(shapefiles)('maps of %s over the embedded basemap', async (name) => {
    const [fid] = await sampleIds(name);
    const query = { file: name, fid, format: 'png', size: '160,200' };
    const expected = await answer(local, '/REST/v1/shapefiles/map', query);
    for (const [, server] of remotes()) {
      expectSame(await answer(server, '/REST/v1/shapefiles/map', query), expected);
    }
  });

  it.each(shapefiles)('/ogc pages and items of %s', async (name) => {
    for (const query of [{ limit: 5 }, { limit: 3, offset: 2 }, { limit: 1000 }] as Record<string, number>[]) {
      const expected = await ogc(local, `/ogc/collections/${name}/items`, query);
      for (const [, server] of remotes()) expect(await ogc(server, `/ogc/collections/${name}/items`, query)).toEqual(expected);
    }
    const [fid] = await sampleIds(name);
    const expected = await ogc(local, `/ogc/collections/${name}/items/${fid}`);
    for (const [, server] of remotes()) expect(await ogc(server, `/ogc/collections/${name}/items/${fid}`)).toEqual(expected);
  });

  it.each([
    ['countries', "NAME LIKE 'N%'"],
    ['country_centres', "NAME LIKE 'B%'"],
    ['borders', "NAME_EN LIKE '%a%'"],
  ])('where= on %s', async (name, where) => {
    for (const path of ['/REST/v1/shapefiles/images', '/REST/v1/shapefiles/map']) {
      const query = { file: name, where, format: 'json', size: '100,100', singleImage: 1, includeHotSpots: 1 };
      const expected = await answer(local, path, query);
      expect(expected.status).toBe(200);
      for (const [, server] of remotes()) {
        expectSame(await answer(server, path, query), expected);
      }
    }
    const filtered = { filter: where, limit: 50 };
    const expected = await ogc(local, `/ogc/collections/${name}/items`, filtered);
    for (const [, server] of remotes()) expect(await ogc(server, `/ogc/collections/${name}/items`, filtered)).toEqual(expected);
  });

  it('gives one version the same ETag on every request', async () => {
    const query = { file: 'countries', fid: 3, format: 'png' };
    const fromS3 = await answer(overS3, '/REST/v1/shapefiles/images', query);
    const again = await answer(overS3, '/REST/v1/shapefiles/images', query);
    expect(fromS3.etag).toMatch(/^"/);
    expect(again.etag).toBe(fromS3.etag);
  });
});

type Answer = Awaited<ReturnType<typeof answer>>;

/** The same status and bytes: a picture exactly, an envelope but for its TraceId (each answer has its own). */
function expectSame(got: Answer, expected: Answer): void {
  expect(got.status, new TextDecoder().decode(got.bytes).slice(0, 400)).toBe(expected.status);
  expect(got.type).toBe(expected.type);
  if (got.type === 'image/png') expect(Buffer.from(got.bytes).equals(Buffer.from(expected.bytes))).toBe(true);
  else expect(withoutTraceId(got.bytes)).toBe(withoutTraceId(expected.bytes));
}

