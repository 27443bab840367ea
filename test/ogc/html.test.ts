/**
 * /ogc's HTML pages, as HTTP sees them: who gets a page and who keeps JSON (f, then Accept:
 * GDAL's and curl's Accept keep JSON), what a page may load (CSP), that data never becomes
 * markup, that its links keep f=html and carry no key but the one a browser brought in the
 * query, and that a browser without a valid key is told in a page how to give one.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShapefileWriter } from '../../scripts/lib/shapefile-writer.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { WGS84_PRJ, writeFixtures } from '../support/fixtures.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { writeWidePoints } from '../support/slow-readers.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const HOSTILE = `<script>alert("x")</script> & 'y'`;

let keyed: TestServer;
/** No keys configured: the start-up key, as on a fresh `npx shapeshot`. */
let fresh: TestServer;
beforeAll(async () => {
  const dir = writeFixtures(makeTempDir('shapeshot-ogc-html-'));
  const writer = createShapefileWriter(join(dir, 'marks'), { shapeType: ShapeType.Point, fields: [{ name: 'NAME', type: 'C', length: 60 }], prj: WGS84_PRJ });
  writer.write({ type: 'Point', coordinates: [5, 52] }, { NAME: HOSTILE });
  writer.close();
  // 1,000 points of 10 × 254 characters: ~2.8 MB of attributes, past what one page shows.
  writeWidePoints(dir, 'wide', { count: 1000, fields: 10 });
  [keyed, fresh] = await Promise.all([startServer({ dataDir: dir }), startServer({ dataDir: dir, keys: [] })]);
});
afterAll(async () => {
  await Promise.all([keyed?.close(), fresh?.close()]);
  removeTempDirs();
});

async function answer(server: TestServer, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(server.url(path), { headers: { 'X-API-Key': TEST_KEY, ...headers } });
  return { status: response.status, type: response.headers.get('content-type'), headers: response.headers, text: await response.text() };
}

const hrefs = (page: string) => [...page.matchAll(/(?:href|src)="([^"]*)"/g)].map((match) => match[1].replaceAll('&amp;', '&'));

describe('which representation', () => {
  const PAGES = ['/ogc', '/ogc/collections', '/ogc/collections/squares', '/ogc/collections/squares/items', '/ogc/collections/squares/items/0'];

  it.each(PAGES)('%s: a page for f=html, and for a browser’s Accept without f', async (path) => {
    const requests: { path: string; headers: Record<string, string> }[] = [
      { path: `${path}?f=html`, headers: {} },
      { path, headers: { Accept: BROWSER_ACCEPT } },
    ];
    for (const request of requests) {
      const got = await answer(keyed, request.path, request.headers);
      expect(got.status, got.text).toBe(200);
      expect(got.type).toBe('text/html; charset=utf-8');
      expect(got.text).toMatch(/^<!doctype html>/);
      expect(got.headers.get('vary')).toMatch(/\bAccept\b/);
      expect(got.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    }
  });

  it.each(PAGES)("%s: JSON for GDAL's Accept, curl's, none, and f=json even from a browser", async (path) => {
    const requests: { path: string; headers: Record<string, string> }[] = [
      { path, headers: { Accept: 'application/geo+json, application/json' } },
      { path, headers: { Accept: 'application/json' } },
      { path, headers: { Accept: '*/*' } },
      { path, headers: {} },
      { path: `${path}?f=json`, headers: { Accept: BROWSER_ACCEPT } },
    ];
    for (const request of requests) {
      const got = await answer(keyed, request.path, request.headers);
      expect(got.status).toBe(200);
      expect(got.type).toMatch(/^application\/(geo\+)?json$/);
      JSON.parse(got.text);
    }
  });

  it('takes f=html as a known value, and names it when f is wrong', async () => {
    const wrong = await answer(keyed, '/ogc/collections?f=xml');
    expect(wrong.status).toBe(400);
    expect(JSON.parse(wrong.text).description).toBe("Parameter 'f' must be 'json' or 'html'; got 'xml'.");
  });

  it('declares the pages in the API definition', async () => {
    const definition = JSON.parse((await answer(keyed, '/ogc/api')).text);
    const items = definition.paths['/collections/{collectionId}/items'].get;
    expect(Object.keys(items.responses[200].content)).toEqual(['application/geo+json', 'text/html']);
    expect(items.parameters.find((parameter: { name: string }) => parameter.name === 'f').schema.enum).toEqual(['json', 'geojson', 'html']);
    expect(Object.keys(definition.paths['/conformance'].get.responses[200].content)).toEqual(['application/json']);
  });
});

describe('the pages', () => {
  it('show data as text, never as markup', async () => {
    const items = await answer(keyed, '/ogc/collections/marks/items?f=html');
    const item = await answer(keyed, '/ogc/collections/marks/items/0?f=html');
    for (const page of [items.text, item.text]) {
      expect(page).not.toContain('<script>');
      expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;');
    }
  });

  it('show a collection’s extent and queryables, and link it into the playground', async () => {
    const { text } = await answer(keyed, '/ogc/collections/squares?f=html');
    expect(text).toContain('Extent (WGS 84 lon/lat)');
    expect(text).toContain('4.5934, 51.5862 to 4.6369, 51.5955');
    expect(text).toMatch(/<td><code>NAME<\/code><\/td><td>string<\/td>/);
    expect(hrefs(text)).toContain(keyed.url('/?file=squares'));
  });

  it('page through items with links that keep f=html and the filter', async () => {
    const first = await answer(keyed, `/ogc/collections/squares/items?f=html&limit=2&filter=${encodeURIComponent("NAME <> 'squares 1'")}`);
    expect(first.text).toContain('Features <strong>1–2</strong> of 5');
    const next = hrefs(first.text).find((href) => href.includes('offset=2'))!;
    expect(new URL(next).searchParams.get('f')).toBe('html');
    expect(new URL(next).searchParams.get('filter')).toBe("NAME <> 'squares 1'");
    const second = await answer(keyed, next.replace(/^http:\/\/[^/]+/, ''));
    expect(second.text).toContain('Features <strong>3–4</strong> of 5');
    expect(hrefs(second.text).some((href) => href.includes('offset=0'))).toBe(true);
  });

  it('carry no key that came in the X-API-Key header, and show no picture that would need one', async () => {
    for (const [server, key] of [
      [keyed, TEST_KEY],
      [fresh, fresh.services.keys.startUpKey()!],
    ] as const) {
      const { status, text } = await answer(server, '/ogc/collections/squares/items/1?f=html', { 'X-API-Key': key });
      expect(status).toBe(200);
      expect(text).not.toContain(key);
      expect(text).not.toContain('<img');
      for (const href of hrefs(text)) expect(href).not.toMatch(/key=/i);
    }
  });

  it('carry the key that came in the query, a configured one or the start-up key, and then show the picture', async () => {
    for (const [server, key] of [
      [keyed, TEST_KEY],
      [fresh, fresh.services.keys.startUpKey()!],
    ] as const) {
      const byQuery = await answer(server, `/ogc/collections/squares/items/1?f=html&key=${key}`, { 'X-API-Key': '' });
      expect(byQuery.status).toBe(200);
      const picture = hrefs(byQuery.text).find((href) => href.includes('/REST/v1/shapefiles/images'))!;
      expect(Object.fromEntries(new URL(picture).searchParams)).toEqual({ file: 'squares', fid: '1', format: 'png', size: '240,320', key });
      const image = await fetch(picture);
      expect(image.headers.get('content-type')).toBe('image/png');
      const links = hrefs(byQuery.text).filter((href) => href.includes('/ogc'));
      expect(links.length).toBeGreaterThan(3);
      for (const href of links) expect(new URL(href).searchParams.get('key')).toBe(key);
      // The playground keeps the key it was given itself: none in its link.
      expect(hrefs(byQuery.text)).toContain(server.url('/?file=squares'));
    }
  });
});

describe('a browser without a valid key', () => {
  const KEYLESS = ['/ogc?f=html', '/ogc/collections?f=html', '/ogc/collections/squares/items/1?f=html'];

  it.each(KEYLESS)('%s: a page (status 401 still) saying how to give the key and where the start-up key was printed', async (path) => {
    const got = await answer(fresh, path, { 'X-API-Key': '' });
    expect(got.status).toBe(401);
    expect(got.type).toBe('text/html; charset=utf-8');
    expect(got.headers.get('cache-control')).toBe('no-store');
    expect(got.headers.get('vary')).toMatch(/\bAccept\b/);
    expect(got.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    expect(got.text).toContain('This request brought no access key.');
    expect(got.text).toContain('<code>?key=YOUR_KEY</code>');
    expect(got.text).toContain('<code>X-API-Key</code> header');
    expect(got.text).toContain('prints it in the terminal where it was started');
    expect(got.text).not.toMatch(/GDAL_HTTP_HEADERS/);
    // Its stylesheet and the playground, relative to the page: right behind a proxy's path prefix too.
    const [stylesheet, playground] = hrefs(got.text).filter((href) => !href.startsWith('data:'));
    expect(new URL(stylesheet, fresh.url(path)).href).toBe(fresh.url('/playground/playground.css'));
    expect(new URL(playground, fresh.url(path)).href).toBe(fresh.url('/'));
  });

  it('gets the same page for its own Accept without f, and never hears the wrong key it brought', async () => {
    const got = await answer(fresh, '/ogc/collections?key=not-the-key-1234', { 'X-API-Key': '', Accept: BROWSER_ACCEPT });
    expect(got.status).toBe(401);
    expect(got.type).toBe('text/html; charset=utf-8');
    expect(got.text).toContain('The key this request brought is not one this server accepts');
    expect(got.text).not.toContain('not-the-key-1234');
  });

  it("leaves GDAL, QGIS and curl the JSON exception: their Accept, none, or f=json", async () => {
    for (const headers of [{ Accept: 'application/geo+json, application/json' }, { Accept: '*/*' }, {}] as Record<string, string>[]) {
      const got = await answer(fresh, '/ogc/collections', { 'X-API-Key': '', ...headers });
      expect(got.status).toBe(401);
      expect(got.type).toMatch(/^application\/json/);
      expect(JSON.parse(got.text).description).toMatch(/^Parameter 'key' is required: send an access key in the X-API-Key header/);
    }
    expect((await answer(fresh, '/ogc/collections?f=json', { 'X-API-Key': '', Accept: BROWSER_ACCEPT })).type).toMatch(/^application\/json/);
  });
});

describe('a page of features for people', () => {
  it("holds a page's worth of features, not an answer's: it is parsed and written on the event loop", async () => {
    const json = await answer(keyed, '/ogc/collections/wide/items?limit=1000');
    expect(json.status).toBe(200);
    const html = await answer(keyed, '/ogc/collections/wide/items?limit=1000&f=html');
    expect(html.status).toBe(400);
    expect(html.text).toContain("Ask for fewer features with 'limit'");
    expect((await answer(keyed, '/ogc/collections/wide/items?limit=100&f=html')).status).toBe(200);
  });
});
