/**
 * No answer quotes a key: not a value sent under the name `key` in any case, on any route,
 * and not a path a key was pasted into by mistake (the 404s name the routes there are
 * instead). And what a client sends as parameter names is looked up without prototype keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOgcServer, get } from '../ogc/support.ts';
import { TEST_KEY, type TestServer } from '../support/server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startOgcServer();
});

afterAll(() => server.close());

const OTHER = 'another-secret-value';

async function text(path: string, init: RequestInit = {}): Promise<{ status: number; body: string }> {
  const response = await fetch(server.url(path), init);
  return { status: response.status, body: await response.text() };
}

describe('a key parameter', () => {
  it.each(['KEY', 'Key', 'key'])('given twice as %s: /ogc names it without its values', async (name) => {
    const { status, body } = await text(`/ogc?${name}=${TEST_KEY}&${name}=${OTHER}`);
    expect(status).toBe(400);
    expect(body).toContain(`Parameter '${name}' was given more than once with different values.`);
    expect(body).not.toContain(TEST_KEY);
    expect(body).not.toContain(OTHER);
  });

  it.each(['/REST/v1/shapefiles/images?file=squares&fid=0', '/REST/v1/shapefiles/map?file=points&fid=0'])(
    'given twice in two cases on %s: named without its values',
    async (path) => {
      const { status, body } = await text(`${path}&format=json&Key=${TEST_KEY}&KEY=${OTHER}`);
      expect(status).toBe(400);
      expect(body).toContain("Parameter 'key' was given more than once with different values.");
      expect(body).not.toContain(TEST_KEY);
      expect(body).not.toContain(OTHER);
    },
  );
});

describe('an unknown path', () => {
  it.each([
    [`/REST/v1/shapefiles/${TEST_KEY}?format=json&key=${TEST_KEY}`, 'There is no resource at this path; the routes are /REST/v1/shapefiles/images, /REST/v1/shapefiles/map, /REST/v1/shapefiles/legend, /REST/v1/shapefiles/tiles, /REST/v1/basemap, /REST/v1/usage, /ogc (OGC API – Features and Tiles)'],
    [`/${TEST_KEY}?format=json`, 'There is no resource at this path; the routes are /REST/v1/shapefiles/images'],
    [`/ogc/${TEST_KEY}`, 'There is no resource at this path; those under /ogc are /ogc, /ogc/api, /ogc/conformance, /ogc/collections'],
    [`/ogc/collections/${TEST_KEY}`, 'There is no collection of that name; GET /ogc/collections lists them.'],
    [`/ogc/collections/${TEST_KEY}/items`, 'There is no collection of that name; GET /ogc/collections lists them.'],
    [`/ogc/collections/countries/items/${TEST_KEY}`, "Collection 'countries' has no feature of that id: feature ids are record numbers 0, 1, 2, …"],
    ['/ogc/collections/%E0%A4%A/items', 'There is no resource at this path; those under /ogc are'],
  ])('%s: 404 naming what there is, not the path', async (path, details) => {
    const { status, body } = await text(path, { headers: { 'X-API-Key': TEST_KEY } });
    expect(status).toBe(404);
    expect(body).toContain(details);
    expect(body).not.toContain(TEST_KEY);
  });
});

describe('parameter names that are prototype keys', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('%s is an unknown parameter: ignored by images and map', async (name) => {
    for (const path of ['/REST/v1/shapefiles/images?file=squares&fid=0', '/REST/v1/shapefiles/map?file=points&fid=0']) {
      const { status, body } = await text(`${path}&format=json&key=${TEST_KEY}&${name}=x`);
      expect(status, body).toBe(200);
    }
  });

  it.each(['__proto__', 'constructor'])('%s is an unknown parameter of /ogc: 400 naming it', async (name) => {
    const { status, body } = await get(server, `/ogc/collections/squares/items?${name}=x`);
    expect(status).toBe(400);
    expect(body.description).toBe(`'${name}' is no parameter of this resource; it takes key, f, limit, offset, bbox, datetime, properties, filter, filter-lang.`);
  });
});
