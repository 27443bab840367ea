import { cpSync, readdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKERBOARD_PLUGIN, allTypes, mapUrl } from '../map/support.ts';
import { writeFixtures } from '../support/fixtures.ts';
import { decodePng } from '../support/png.ts';
import { imagesUrl, startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

const THEMES_DIR = fileURLToPath(new URL('../../themes/', import.meta.url));
const STRONG = /^"[\w-]{22}"$/;
const WEAK = /^W\/"[\w-]{22}"$/;

/** A copy of `folder` as a deployment would make it: same contents, same modification times. */
function copyOf(folder: string): string {
  const copy = makeTempDir();
  cpSync(folder, copy, { recursive: true, preserveTimestamps: true });
  return copy;
}

function checkerboard(cell: number) {
  return { providers: { board: { plugin: CHECKERBOARD_PLUGIN, options: { cell } } }, types: allTypes('board') };
}

const start = (dataDir: string, config: Record<string, unknown> = {}) =>
  startServer({ dataDir, render: { workers: 1 }, basemaps: checkerboard(64), ...config });

let data: string;
/** Two instances of one deployment, each on its own copy of the data. */
let first: TestServer;
let second: TestServer;
/** The same data, but another Ocean theme and another basemap configuration. */
let reconfigured: TestServer;
/** Copies that look at their files on every request, and once a minute. */
let everyRequest: TestServer;
let everyMinute: TestServer;

beforeAll(async () => {
  data = writeFixtures(makeTempDir());
  // Whole seconds, which every copy keeps exactly (cpSync keeps a time to about a microsecond).
  const written = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
  for (const file of readdirSync(data)) utimesSync(join(data, file), written, written);

  const themes = copyOf(THEMES_DIR);
  const ocean = JSON.parse(readFileSync(join(themes, 'ocean.json'), 'utf8'));
  writeFileSync(join(themes, 'ocean.json'), JSON.stringify({ ...ocean, lineWidth: 5 }));

  [first, second, reconfigured, everyRequest, everyMinute] = await Promise.all([
    start(copyOf(data)),
    start(copyOf(data)),
    start(copyOf(data), { themesDir: themes, basemaps: checkerboard(32) }),
    start(copyOf(data), { fileCheckMs: 0 }),
    start(copyOf(data), { fileCheckMs: 60_000 }),
  ]);
});
afterAll(async () => {
  await Promise.all([first, second, reconfigured, everyRequest, everyMinute].map((server) => server?.close()));
  removeTempDirs();
});

const image = (server: TestServer, query: Record<string, string | number>, init?: RequestInit) =>
  fetch(imagesUrl(server, { file: 'squares', fid: 0, format: 'png', ...query }), init);

async function etagOf(response: Response): Promise<string> {
  expect(response.status, await response.text()).toBe(200);
  return response.headers.get('etag')!;
}

const imageTag = async (server: TestServer, query: Record<string, string | number> = {}) => etagOf(await image(server, query));
const mapTag = async (server: TestServer, query: Record<string, string | number> = {}) =>
  etagOf(await fetch(mapUrl(server, { file: 'squares', format: 'png', ...query })));

const finishedJobs = (server: TestServer) => server.services.jobs.stats.finished;

describe('the ETag', () => {
  it('is strong for image bytes and weak for the envelopes, whose TraceId changes', async () => {
    expect(await imageTag(first)).toMatch(STRONG);
    expect(await imageTag(first, { format: 'svg' })).toMatch(STRONG);
    expect(await imageTag(first, { format: 'xml' })).toMatch(WEAK);
    expect(await imageTag(first, { format: 'json' })).toMatch(WEAK);
    expect(await mapTag(first)).toMatch(STRONG);
    expect(await mapTag(first, { format: 'json' })).toMatch(WEAK);
  });

  it('is the same on two instances serving copies of the same data', async () => {
    for (const format of ['png', 'xml', 'json']) {
      expect(await imageTag(second, { format, theme: 'Ocean' })).toBe(await imageTag(first, { format, theme: 'Ocean' }));
      expect(await mapTag(second, { format })).toBe(await mapTag(first, { format }));
    }
  });

  it('changes with any parameter that changes the picture, and only with those', async () => {
    const plain = await imageTag(first);
    expect(await imageTag(first, { size: '240,320' })).not.toBe(plain);
    expect(await imageTag(first, { lineColor: 'blue' })).not.toBe(plain);
    expect(await imageTag(first, { fid: 1 })).not.toBe(plain);
    expect(await imageTag(first, { theme: 'Ocean' })).not.toBe(plain);
    expect(await mapTag(first, { zoom: 9 })).not.toBe(await mapTag(first));
    // Spelled otherwise, the same picture: file and parameter names in any case, defaults given.
    expect(await etagOf(await fetch(imagesUrl(first, { FILE: 'SQUARES', FID: 0, Format: 'PNG', lineColor: '#ff0000' })))).toBe(plain);
    expect(await imageTag(first, { noCache: 1 })).toBe(plain);
  });

  it('changes with the theme file and the basemap configuration', async () => {
    expect(await imageTag(reconfigured)).toBe(await imageTag(first));
    expect(await imageTag(reconfigured, { theme: 'Ocean' })).not.toBe(await imageTag(first, { theme: 'Ocean' }));
    expect(await mapTag(reconfigured)).not.toBe(await mapTag(first));
  });

  it('changes when a file of the shapefile is touched or rewritten, with Last-Modified', async () => {
    const dataDir = everyRequest.services.config.dataDir;
    const before = await image(everyRequest, { file: 'lines' });
    const tag = await etagOf(before);
    expect(before.headers.get('last-modified')).toBe(statSync(join(dataDir, 'lines.shp')).mtime.toUTCString());

    const later = new Date(statSync(join(dataDir, 'lines.dbf')).mtimeMs + 5_000);
    utimesSync(join(dataDir, 'lines.dbf'), later, later);
    const touched = await image(everyRequest, { file: 'lines' });
    const touchedTag = await etagOf(touched);
    expect(touchedTag).not.toBe(tag);
    expect(touched.headers.get('last-modified')).toBe(later.toUTCString());

    // Another size at the same time: rewritten in place with its timestamp put back.
    const prj = join(dataDir, 'lines.prj');
    const { atime, mtime } = statSync(prj);
    writeFileSync(prj, `${readFileSync(prj, 'utf8')}\n`);
    utimesSync(prj, atime, mtime);
    expect(await imageTag(everyRequest, { file: 'lines' })).not.toBe(touchedTag);
  });

  it('stays for fileCheckMs after a file changed: one look at the files stands that long', async () => {
    const dataDir = everyMinute.services.config.dataDir;
    const tag = await imageTag(everyMinute, { file: 'lines' });
    const later = new Date(statSync(join(dataDir, 'lines.dbf')).mtimeMs + 5_000);
    utimesSync(join(dataDir, 'lines.dbf'), later, later);
    expect(await imageTag(everyMinute, { file: 'lines' })).toBe(tag);
  });

  it('is not needed to find a file gone, or one come, within fileCheckMs: both are answered as they are', async () => {
    const dataDir = everyMinute.services.config.dataDir;
    expect((await image(everyMinute, {})).status).toBe(200);
    const squares = readdirSync(dataDir).filter((name) => name.startsWith('squares.'));
    const held = makeTempDir();
    for (const name of squares) renameSync(join(dataDir, name), join(held, name));
    const gone = await image(everyMinute, {});
    expect(gone.status).toBe(404);
    expect((await gone.json()).ErrorDetails).toContain("Shapefile 'squares' was not found.");
    for (const name of squares) renameSync(join(held, name), join(dataDir, name.replace('squares', 'copied')));
    expect((await image(everyMinute, { file: 'copied' })).status).toBe(200);
  });
});

describe('If-None-Match', () => {
  it('answers 304 with the validators and without drawing anything', async () => {
    const tag = await imageTag(first);
    const finished = finishedJobs(first);
    const response = await image(first, {}, { headers: { 'If-None-Match': tag } });
    expect(response.status).toBe(304);
    expect(await response.text()).toBe('');
    expect(response.headers.get('etag')).toBe(tag);
    expect(response.headers.get('cache-control')).toBe('private, max-age=300');
    expect(finishedJobs(first)).toBe(finished);
    // Which the count would show: an unconditional request draws.
    await imageTag(first);
    expect(finishedJobs(first)).toBe(finished + 1);
  });

  it('matches within a list, by weak comparison, and as *', async () => {
    const strong = await imageTag(first);
    const weak = await imageTag(first, { format: 'json' });
    const notModified = async (query: Record<string, string | number>, header: string) =>
      (await image(first, query, { headers: { 'If-None-Match': header } })).status === 304;
    expect(await notModified({}, `"other", "x,y", ${strong}`)).toBe(true);
    expect(await notModified({}, `W/${strong}`)).toBe(true);
    expect(await notModified({ format: 'json' }, weak)).toBe(true);
    expect(await notModified({ format: 'json' }, weak.slice(2))).toBe(true);
    expect(await notModified({ format: 'json' }, '*')).toBe(false);
    expect(await notModified({}, `"other", ${weak}`)).toBe(false);
    expect(await notModified({ size: '240,320' }, strong)).toBe(false);
  });

  it('answers 304 for maps without drawing', async () => {
    const tag = await mapTag(first);
    const finished = finishedJobs(first);
    const response = await fetch(mapUrl(first, { file: 'squares', format: 'png' }), { headers: { 'If-None-Match': tag } });
    expect(response.status).toBe(304);
    expect(finishedJobs(first)).toBe(finished);
  });

  it('leaves If-Modified-Since alone: Last-Modified speaks only for the shapefile', async () => {
    const plain = await image(first, {});
    const lastModified = plain.headers.get('last-modified');
    expect(lastModified).not.toBeNull();
    // A date after the shapefile's: a server that trusted it would answer 304, though a theme
    // or the code may have changed the picture since.
    const later = new Date(Date.parse(lastModified!) + 86_400_000).toUTCString();
    const response = await image(first, {}, { headers: { 'If-Modified-Since': later } });
    expect(response.status).toBe(200);
    expect(response.headers.get('last-modified')).toBe(lastModified);
    const body = new Uint8Array(await response.arrayBuffer());
    expect(body).toEqual(new Uint8Array(await plain.arrayBuffer()));
    expect(decodePng(body).width).toBeGreaterThan(0);
  });

});

describe('caching headers', () => {
  it('vary with X-API-Key when the header carried the key', async () => {
    const params = new URLSearchParams({ file: 'squares', fid: '0', format: 'png' });
    const byHeader = await fetch(first.url(`/REST/v1/shapefiles/images?${params}`), { headers: { 'X-API-Key': TEST_KEY } });
    expect(byHeader.status).toBe(200);
    expect(byHeader.headers.get('vary')).toBe('X-API-Key');
    const byParameter = await image(first, {});
    expect(byParameter.headers.get('vary')).toBeNull();
    expect(await etagOf(byHeader)).toBe(await etagOf(byParameter));
  });

  it('say no-store for noCache=1, with the ETag still given', async () => {
    const response = await image(first, { noCache: 1 });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('etag')).toMatch(STRONG);
  });

  it('follow the configuration', async () => {
    const server = await startServer({ dataDir: data, render: { workers: 1 }, http: { cacheControl: 'public, max-age=60' } });
    try {
      expect((await image(server, {})).headers.get('cache-control')).toBe('public, max-age=60');
    } finally {
      await server.close();
    }
  });

  it('are not given to a map a fallback provider drew in place of the configured one', async () => {
    const basemaps = {
      providers: {
        down: { plugin: CHECKERBOARD_PLUGIN, options: { unavailable: true }, fallback: 'board' },
        board: { plugin: CHECKERBOARD_PLUGIN, options: { cell: 64 } },
      },
      types: allTypes('down'),
    };
    const server = await startServer({ dataDir: data, render: { workers: 1 }, basemaps });
    try {
      const response = await fetch(mapUrl(server, { file: 'squares', fid: 0, format: 'png' }));
      expect(response.status).toBe(200);
      expect(response.headers.get('etag')).toBeNull();
      expect(response.headers.get('cache-control')).toBe('no-store');
    } finally {
      await server.close();
    }
  });

  it('are never an error’s: no ETag, no-store', async () => {
    for (const response of [
      await image(first, { file: 'nothing' }),
      await image(first, { size: 'big' }),
      await image(first, { key: 'not-a-key' }),
      await fetch(mapUrl(first, { file: 'squares', fid: 99 })),
    ]) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.headers.get('etag')).toBeNull();
      expect(response.headers.get('last-modified')).toBeNull();
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('come with HEAD as with GET, without a body', async () => {
    const get = await image(first, { format: 'xml' });
    await get.text();
    const head = await image(first, { format: 'xml' }, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const name of ['etag', 'last-modified', 'cache-control', 'content-type']) {
      expect(head.headers.get(name), name).toBe(get.headers.get(name));
    }
    const tag = await mapTag(first);
    const finished = finishedJobs(first);
    const conditional = await fetch(mapUrl(first, { file: 'squares', format: 'png' }), { method: 'HEAD', headers: { 'If-None-Match': tag } });
    expect(conditional.status).toBe(304);
    expect(finishedJobs(first)).toBe(finished);
  });
});
