/**
 * /ogc/collections in pages (docs/decisions.md, "At size"): `limit` (by default ogc.maxLimit, so that
 * a catalog of up to that many shapefiles lists whole in the first page, as before) and `offset`,
 * with `next` and `prev` links and the counts items carry. Pages cover every collection the key
 * may see exactly once, in the catalog's order; a page looks up and describes only its own
 * shapefiles, whatever the catalog's size; and GDAL lists every layer, paged or not.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShapefileFiles } from '../../src/shapefile/file-set.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { numberedNames, writeManyShapefiles } from './many-shapefiles.ts';
import { get, type Answer } from './support.ts';

const run = promisify(execFile);

interface Link {
  href: string;
  rel: string;
  type?: string;
}

interface CollectionsAnswer {
  links: Link[];
  numberMatched: number;
  numberReturned: number;
  collections: { id: string }[];
}

const linkTo = (document: { links: Link[] }, rel: string) => document.links.find((link) => link.rel === rel);
const idsOf = (document: CollectionsAnswer) => document.collections.map((collection) => collection.id);

/** A key that may see seven of the shapefiles, named here in another case than on disk. */
const SCOPED_KEY = 'scoped-key-0123456789';
const SCOPED_TO = ['LAYER_03', 'layer_05', 'Layer_08', 'layer_13', 'layer_17', 'layer_21', 'layer_24'];

/** 25 shapefiles, and three named so that the catalog's order is not plain code-unit order. */
const NAMES = [...numberedNames(25), 'Zeta', 'alpha', 'Beta'];

let server: TestServer;
let catalogOrder: readonly string[];
beforeAll(async () => {
  server = await startServer({ dataDir: writeManyShapefiles(NAMES), keys: [{ key: TEST_KEY }, { key: SCOPED_KEY, shapefiles: SCOPED_TO }] });
  catalogOrder = await server.services.catalog.names();
});
afterAll(async () => {
  await server?.close();
  removeTempDirs();
});

/** Every page from `first` on, following `next` links with the key in the header (links carry none). */
async function allPages(target: TestServer, first: string, key = TEST_KEY): Promise<CollectionsAnswer[]> {
  const pages: CollectionsAnswer[] = [];
  let next: string | undefined = first;
  while (next !== undefined) {
    const answer: Answer<CollectionsAnswer> = await get<CollectionsAnswer>(target, next, key);
    expect(answer.status, next).toBe(200);
    pages.push(answer.body);
    next = linkTo(answer.body, 'next')?.href;
    expect(pages.length).toBeLessThan(1000);
  }
  return pages;
}

describe('pages of collections', () => {
  it('cover every collection exactly once, in the catalog’s order, whatever the limit', async () => {
    expect(catalogOrder).toHaveLength(NAMES.length);
    expect(catalogOrder.slice(0, 3)).toEqual(['alpha', 'Beta', 'layer_00']);
    for (const limit of [1, 4, 10, 27, 28, 29, 1000]) {
      const pages = await allPages(server, `/ogc/collections?limit=${limit}`);
      expect(pages.flatMap(idsOf), `limit=${limit}`).toEqual(catalogOrder);
      expect(pages).toHaveLength(Math.ceil(NAMES.length / limit));
      for (const page of pages) {
        expect(page.numberMatched).toBe(NAMES.length);
        expect(page.numberReturned).toBe(page.collections.length);
        expect(page.collections.length).toBeLessThanOrEqual(limit);
      }
    }
  });

  it('link to the next page only while collections follow, to the previous one only after the first; with the query and f, never the key', async () => {
    const { body: middle } = await get<CollectionsAnswer>(server, `/ogc/collections?f=json&limit=10&offset=10&key=${TEST_KEY}`);
    expect(middle.links.map((link) => [link.rel, link.href, link.type])).toEqual([
      ['self', server.url('/ogc/collections?f=json&limit=10&offset=10'), 'application/json'],
      ['next', server.url('/ogc/collections?f=json&limit=10&offset=20'), 'application/json'],
      ['prev', server.url('/ogc/collections?f=json&limit=10&offset=0'), 'application/json'],
    ]);
    expect(idsOf(middle)).toEqual(catalogOrder.slice(10, 20));

    const last = (await get<CollectionsAnswer>(server, '/ogc/collections?limit=10&offset=20')).body;
    expect(linkTo(last, 'next')).toBeUndefined();
    expect(linkTo(last, 'prev')?.href).toBe(server.url('/ogc/collections?limit=10&offset=10'));
    expect(last).toMatchObject({ numberMatched: 28, numberReturned: 8 });

    // The first page: no way back; a page off the grid goes back to the first, not before it.
    const first = (await get<CollectionsAnswer>(server, '/ogc/collections?limit=10')).body;
    expect(first.links.map((link) => link.rel)).toEqual(['self', 'next']);
    expect(linkTo(first, 'next')?.href).toBe(server.url('/ogc/collections?limit=10&offset=10'));
    const offGrid = (await get<CollectionsAnswer>(server, '/ogc/collections?limit=10&offset=3')).body;
    expect(linkTo(offGrid, 'prev')?.href).toBe(server.url('/ogc/collections?limit=10&offset=0'));
    expect(idsOf(offGrid)).toEqual(catalogOrder.slice(3, 13));

    // Past the end: an empty page that says how many there are, and leads back.
    const beyond = (await get<CollectionsAnswer>(server, '/ogc/collections?limit=10&offset=100')).body;
    expect(beyond).toMatchObject({ numberMatched: 28, numberReturned: 0, collections: [] });
    expect(beyond.links.map((link) => link.rel)).toEqual(['self', 'prev']);
    expect(linkTo(beyond, 'prev')?.href).toBe(server.url('/ogc/collections?limit=10&offset=90'));

    // All in one page (the default): no neighbour.
    const whole = (await get<CollectionsAnswer>(server, '/ogc/collections')).body;
    expect(whole.links.map((link) => link.rel)).toEqual(['self']);
    expect(whole).toMatchObject({ numberMatched: 28, numberReturned: 28 });
  });

  it('refuse a limit or offset out of range with a 400 exception naming it; a limit past ogc.maxLimit is taken as that', async () => {
    const refused: [string, string][] = [
      ['limit=0', "Parameter 'limit' must be a positive integer; got '0'."],
      ['limit=-1', "Parameter 'limit' must be a positive integer; got '-1'."],
      ['limit=2.5', "Parameter 'limit' must be a positive integer; got '2.5'."],
      ['limit=ten', "Parameter 'limit' must be a positive integer; got 'ten'."],
      ['limit=', "Parameter 'limit' must be a positive integer; got ''."],
      ['offset=-1', "Parameter 'offset' must be an integer of at least 0; got '-1'."],
      ['offset=1e3', "Parameter 'offset' must be an integer of at least 0; got '1e3'."],
      ['limit=1&limit=2', "Parameter 'limit' was given more than once with different values ('1' and '2')."],
    ];
    for (const [query, description] of refused) {
      const answer = await get(server, `/ogc/collections?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.headers.get('content-type'), query).toBe('application/json');
      expect(answer.body, query).toEqual({ code: 'BadRequest', description });
    }
    const capped = await get<CollectionsAnswer>(server, '/ogc/collections?limit=5000');
    expect(capped.status).toBe(200);
    expect(capped.body.numberReturned).toBe(28);
    // A limit of 2^53 and more is still an integer, taken as the maximum; an offset that large finds nothing.
    expect((await get<CollectionsAnswer>(server, '/ogc/collections?limit=99999999999999999999')).body.numberReturned).toBe(28);
    expect((await get<CollectionsAnswer>(server, '/ogc/collections?offset=99999999999999999999')).body.numberReturned).toBe(0);
  });

  it('a key that may see some shapefiles pages over its own only, and counts only those', async () => {
    const own = catalogOrder.filter((name) => SCOPED_TO.some((scoped) => scoped.toLowerCase() === name.toLowerCase()));
    expect(own).toHaveLength(SCOPED_TO.length);
    const pages = await allPages(server, '/ogc/collections?limit=3', SCOPED_KEY);
    expect(pages.flatMap(idsOf)).toEqual(own);
    expect(pages.map((page) => [page.numberMatched, page.numberReturned])).toEqual([
      [7, 3],
      [7, 3],
      [7, 1],
    ]);
  });

  it('are declared in the API definition: limit (default and maximum ogc.maxLimit) and offset', async () => {
    const { body } = await get(server, '/ogc/api');
    const parameters = Object.fromEntries(body.paths['/collections'].get.parameters.map((parameter: { name: string }) => [parameter.name, parameter]));
    expect(Object.keys(parameters).sort()).toEqual(['X-API-Key', 'f', 'key', 'limit', 'offset']);
    expect(parameters.limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000, default: 1000 } });
    expect(parameters.offset).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } });
    expect(parameters.limit.description).toMatch(/collections/);
  });

  it('are pages for a browser too, linked to their neighbours with f=html and the key only when it came in the query', async () => {
    const response = await fetch(server.url(`/ogc/collections?f=html&limit=10&offset=10&key=${TEST_KEY}`));
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain('Shapefiles <strong>11–20</strong> of the 28 this key may see.');
    const anchors = Object.fromEntries([...page.matchAll(/<a rel="(next|prev)" href="([^"]*)">([^<]*)<\/a>/g)].map((match) => [match[1], [match[2].replaceAll('&amp;', '&'), match[3]]]));
    expect(anchors).toEqual({
      prev: [server.url(`/ogc/collections?f=html&limit=10&offset=0&key=${TEST_KEY}`), 'Previous 10'],
      next: [server.url(`/ogc/collections?f=html&limit=10&offset=20&key=${TEST_KEY}`), 'Next 10'],
    });
    // One page holds them all: no paging links, and the count as before; a key sent in the header is in no link.
    const whole = await (await fetch(server.url('/ogc/collections?f=html'), { headers: { 'X-API-Key': TEST_KEY } })).text();
    expect(whole).toContain('28 shapefiles this key may see.');
    expect(whole).not.toContain('aria-label="Pages"');
    for (const href of [...whole.matchAll(/href="([^"]*)"/g)].map((match) => match[1])) expect(href).not.toMatch(/key=/i);
  });
});

describe('a catalog of more than a page', () => {
  const COUNT = 1005;
  let big: TestServer;
  let names: string[];
  beforeAll(async () => {
    names = numberedNames(COUNT, 'many_');
    big = await startServer({ dataDir: writeManyShapefiles(names) });
  }, 60_000);
  afterAll(async () => {
    await big?.close();
  });

  it('lists up to ogc.maxLimit (1,000) in the default page, and the rest behind its next link', async () => {
    const first = await get<CollectionsAnswer>(big, '/ogc/collections');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ numberMatched: COUNT, numberReturned: 1000 });
    expect(idsOf(first.body)).toEqual(names.slice(0, 1000));
    expect(linkTo(first.body, 'next')?.href).toBe(big.url('/ogc/collections?offset=1000&limit=1000'));
    const second = await get<CollectionsAnswer>(big, linkTo(first.body, 'next')!.href);
    expect(idsOf(second.body)).toEqual(names.slice(1000));
    expect(linkTo(second.body, 'next')).toBeUndefined();
  }, 60_000);

  it('looks up and describes only the shapefiles of the page asked for', async () => {
    const { catalog, jobs } = big.services;
    const lookedUp: string[] = [];
    const described: ShapefileFiles[][] = [];
    const { find, run: runJob } = { find: catalog.find, run: jobs.run };
    // Watched on their way, not replaced: the real catalog and workers do the work.
    catalog.find = (name, ...rest) => {
      lookedUp.push(name);
      return find.call(catalog, name, ...rest);
    };
    jobs.run = ((kind: string, input: unknown, signal: AbortSignal) => {
      if (kind === 'collections') described.push((input as { files: ShapefileFiles[] }).files);
      return (runJob as (kind: string, input: unknown, signal: AbortSignal) => Promise<unknown>).call(jobs, kind, input, signal);
    }) as typeof jobs.run;
    try {
      const { status, body } = await get<CollectionsAnswer>(big, '/ogc/collections?limit=5&offset=500');
      expect(status).toBe(200);
      expect(idsOf(body)).toEqual(names.slice(500, 505));
      expect(lookedUp).toEqual(names.slice(500, 505));
      expect(described.map((files) => files.map((file) => file.name))).toEqual([names.slice(500, 505)]);
    } finally {
      catalog.find = find;
      jobs.run = runJob;
    }
  });
});

describe('GDAL listing the collections', () => {
  let gdalEnv: NodeJS.ProcessEnv;
  beforeAll(() => {
    const dir = makeTempDir('shapeshot-gdal-paging-');
    writeFileSync(join(dir, 'headers.txt'), `X-API-Key: ${TEST_KEY}\n`);
    gdalEnv = { ...process.env, GDAL_HTTP_HEADER_FILE: join(dir, 'headers.txt'), CPL_DEBUG: 'OFF' };
  });

  /** The layers ogrinfo lists at `/ogc`, and the URLs of /collections it fetched (from its debug output). */
  async function ogrinfoLayers(target: TestServer): Promise<{ layers: string[]; collectionsFetched: string[] }> {
    const { stdout, stderr } = await run('ogrinfo', ['--debug', 'on', '-ro', '-so', '-q', `OAPIF:${target.url('/ogc')}`], { env: gdalEnv, maxBuffer: 64 * 1024 * 1024 });
    const layers = [...stdout.matchAll(/^\d+: (\S+)/gm)].map((match) => match[1]);
    const collectionsFetched = [...stderr.matchAll(/Fetch\((\S*\/collections(?:\?\S*)?)\)/g)].map((match) => match[1]);
    return { layers, collectionsFetched };
  }

  it('lists every layer of a folder of 25 shapefiles with the default settings, from one page', async () => {
    const names = numberedNames(25, 'gdal_');
    const folder = await startServer({ dataDir: writeManyShapefiles(names) });
    try {
      const { layers, collectionsFetched } = await ogrinfoLayers(folder);
      expect(layers).toEqual(names);
      expect(collectionsFetched).toEqual([folder.url('/ogc/collections')]);
    } finally {
      await folder.close();
    }
  }, 60_000);

  it('follows the next links (GDAL 3.6 does) when the collections take more than a page', async () => {
    const names = numberedNames(25, 'gdal_');
    const folder = await startServer({ dataDir: writeManyShapefiles(names), ogc: { maxLimit: 10 } });
    try {
      const { layers, collectionsFetched } = await ogrinfoLayers(folder);
      expect(layers).toEqual(names);
      expect(collectionsFetched).toEqual([
        folder.url('/ogc/collections'),
        folder.url('/ogc/collections?offset=10&limit=10'),
        folder.url('/ogc/collections?offset=20&limit=10'),
      ]);
    } finally {
      await folder.close();
    }
  }, 60_000);
});
