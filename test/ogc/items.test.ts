import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { get, startOgcServer, type Answer } from './support.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startOgcServer({ ogc: { maxLimit: 100 } });
});
afterAll(async () => {
  await server.close();
  removeTempDirs();
});

interface Feature {
  type: 'Feature';
  id: number;
  geometry: { type: string; coordinates: unknown } | null;
  properties: Record<string, unknown>;
  links?: Link[];
}
interface Link {
  href: string;
  rel: string;
  type: string;
}
interface FeatureCollection {
  type: 'FeatureCollection';
  numberMatched: number;
  numberReturned: number;
  timeStamp: string;
  links: Link[];
  features: Feature[];
}

const items = (collection: string, query = ''): Promise<Answer<FeatureCollection>> => get(server, `/ogc/collections/${collection}/items${query && `?${query}`}`);
const ids = (page: FeatureCollection) => page.features.map((feature) => feature.id);
const link = (page: FeatureCollection, rel: string) => page.links.find((candidate) => candidate.rel === rel);

/** Every page from `first` on, following the next links. */
async function allPages(first: string): Promise<FeatureCollection[]> {
  const pages: FeatureCollection[] = [];
  for (let href: string | undefined = server.url(first); href; href = link(pages[pages.length - 1], 'next')?.href) {
    const { status, body } = await get<FeatureCollection>(server, href);
    expect(status, href).toBe(200);
    pages.push(body);
  }
  return pages;
}

describe('a page of items', () => {
  it('is a GeoJSON FeatureCollection in WGS 84, ten features by default, with counts, time stamp and links', async () => {
    const { status, headers, body } = await items('countries');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/geo+json');
    expect(body).toMatchObject({ type: 'FeatureCollection', numberMatched: 241, numberReturned: 10 });
    expect(Math.abs(Date.parse(body.timeStamp) - Date.now())).toBeLessThan(60_000);
    expect(ids(body)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(body.features[0]).toMatchObject({ type: 'Feature', id: 0, geometry: { type: 'Polygon' }, properties: { NAME: 'Zimbabwe', NAME_NL: 'Zimbabwe', ISO_N3: '716' } });
    expect(link(body, 'self')).toEqual({ href: server.url('/ogc/collections/countries/items'), rel: 'self', type: 'application/geo+json', title: 'This page' });
    expect(link(body, 'collection')?.href).toBe(server.url('/ogc/collections/countries'));
    expect(link(body, 'next')?.href).toBe(server.url('/ogc/collections/countries/items?offset=10&limit=10'));
    expect(link(body, 'prev')).toBeUndefined();
  });

  it('gives projected data in longitude/latitude', async () => {
    const { body } = await items('squares', 'limit=1');
    const [[first]] = body.features[0].geometry!.coordinates as number[][][];
    // RD New (100000, 400000): 4.593596°E, 51.586218°N (PROJ's cs2cs).
    expect(first[0]).toBeCloseTo(4.593596, 6);
    expect(first[1]).toBeCloseTo(51.586218, 6);
  });

  it('follows the next links to the same features as one big page, with prev links back', async () => {
    const whole = (await items('countries', 'limit=100&properties=NAME')).body;
    expect(whole.numberReturned).toBe(100);
    const pages = await allPages('/ogc/collections/countries/items?limit=7&properties=NAME');
    expect(pages).toHaveLength(35);
    expect(pages.every((page) => page.numberMatched === 241)).toBe(true);
    const features = pages.flatMap((page) => page.features);
    expect(features.map((feature) => feature.id)).toEqual(Array.from({ length: 241 }, (_, i) => i));
    expect(features.slice(0, 100)).toEqual(whole.features);
    expect(pages[34].numberReturned).toBe(3);
    expect(link(pages[2], 'prev')?.href).toBe(server.url('/ogc/collections/countries/items?limit=7&properties=NAME&offset=7'));
  });

  it('skips features whose .dbf row is deleted, and keeps those with a null shape', async () => {
    const pages = await allPages('/ogc/collections/deleted/items?limit=1');
    expect(pages.flatMap(ids)).toEqual([0, 2, 3]);
    expect(pages[0].numberMatched).toBe(3);
    expect(pages[1].features[0]).toMatchObject({ id: 2, geometry: null, properties: { NAME: 'ogr_polygon 2' } });
    expect(ids((await items('deleted', 'offset=1')).body)).toEqual([2, 3]);
  });

  it('caps a limit past ogc.maxLimit, and past the end is an empty page', async () => {
    const capped = await items('countries', 'limit=5000&properties=NAME');
    expect(capped.status).toBe(200);
    expect(capped.body.numberReturned).toBe(100);
    expect(link(capped.body, 'next')?.href).toContain('limit=100');
    const beyond = await items('countries', 'offset=1000');
    expect(beyond.body).toMatchObject({ numberMatched: 241, numberReturned: 0, features: [] });
    expect(link(beyond.body, 'next')).toBeUndefined();
  });

});

describe('ogc.maxPageVertices', () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startOgcServer({ ogc: { maxPageVertices: 2000 } });
  });
  afterAll(() => small.close());

  it('refuses, before reading them, a page or a feature whose records could hold more vertices', async () => {
    // By the index, countries' first ten records hold up to 2927 vertices, the first two 545, record 202 11608.
    const page = await get(small, '/ogc/collections/countries/items');
    expect(page).toMatchObject({ status: 400, body: { code: 'BadRequest' } });
    expect(page.body.description).toMatch(/^The 10 features hold up to \d+ vertices; at most 2000 \(ogc\.maxPageVertices\) fit in one answer\. Ask for fewer with 'limit'\.$/);
    expect((await get(small, '/ogc/collections/countries/items?limit=2')).status).toBe(200);
    const feature = await get(small, '/ogc/collections/countries/items/202');
    expect(feature).toMatchObject({ status: 400, body: { code: 'BadRequest' } });
    expect(feature.body.description).toMatch(/^The feature 202 holds up to \d+ vertices; at most 2000 \(ogc\.maxPageVertices\) fit in one answer\.$/);
  });
});

describe('bbox', () => {
  it('selects the features whose geometry meets it, not just their bounding box, and counts them', async () => {
    // The United States' and Russia's records' boxes span the globe; France reaches 50.17°N at Givet (4.8°E).
    const { body } = await items('countries', 'bbox=4,50,6,52&properties=NAME&limit=100');
    expect(body.features.map((feature) => feature.properties.NAME).sort()).toEqual(['Belgium', 'France', 'Germany', 'Luxembourg', 'Netherlands']);
    expect(body.numberMatched).toBe(5);
    // A box inside a polygon, away from its edges, meets it too.
    const inside = await items('countries', 'bbox=10,51,10.1,51.1&properties=NAME');
    expect(inside.body.features.map((feature) => feature.properties.NAME)).toEqual(['Germany']);
  });

  it('pages through its matches with the bbox in the links', async () => {
    const whole = (await items('countries', 'bbox=-10,35,30,60&properties=NAME&limit=100')).body;
    const pages = await allPages('/ogc/collections/countries/items?bbox=-10,35,30,60&properties=NAME&limit=4');
    expect(pages.flatMap((page) => page.features)).toEqual(whole.features);
    expect(link(pages[0], 'next')?.href).toContain('bbox=-10%2C35%2C30%2C60');
  });

  it('tests projected files in their own units', async () => {
    // All squares start at RD x 100000 (4.5936°E); 4 reaches x 102000 (4.6224°E), 2 x 103000 (4.6367°E).
    const west = await items('squares', 'bbox=4.59,51.58,4.595,51.6');
    expect(ids(west.body)).toEqual([0, 1, 2, 3, 4, 5]);
    const east = await items('squares', 'bbox=4.63,51.58,4.64,51.6');
    expect(ids(east.body)).toEqual([2, 3]);
  });

  it('crosses the antimeridian when minLon is past maxLon; features without geometry match every box', async () => {
    const { body } = await items('countries', 'bbox=179,-20,-179,-15&properties=NAME');
    expect(body.features.map((feature) => feature.properties.NAME)).toEqual(['Fiji']);
    expect(ids((await items('squares', 'bbox=-1,-1,1,1')).body)).toEqual([3]);
  });
});

describe('properties, datetime and filter', () => {
  it('properties= chooses the fields, in any case, in the order named', async () => {
    const { body } = await items('countries', 'limit=1&properties=iso_n3,Name');
    expect(body.features[0].properties).toEqual({ ISO_N3: '716', NAME: 'Zimbabwe' });
    expect(Object.keys(body.features[0].properties)).toEqual(['ISO_N3', 'NAME']);
  });

  it('properties= names a field once however often it is listed, and at most 255 names of 64 characters', async () => {
    const { body } = await items('countries', 'limit=1&properties=NAME,NAME,NAME');
    expect(body.features[0].properties).toEqual({ NAME: 'Zimbabwe' });
    const many = await items('countries', `limit=1&properties=${Array.from({ length: 256 }, () => 'NAME').join(',')}`);
    expect(many.status).toBe(400);
    expect((many.body as unknown as { description: string }).description).toContain('at most 255');
    expect((await items('countries', `limit=1&properties=${'N'.repeat(65)}`)).status).toBe(400);
  });

  it('datetime matches every feature: shapefiles carry no time', async () => {
    const { body } = await items('countries', 'datetime=2020-01-01T00:00:00Z/..&limit=1');
    expect(body.numberMatched).toBe(241);
  });

  it('filter selects by CQL2 text, with bbox too, and pages', async () => {
    const { body } = await items('countries', `filter=${encodeURIComponent("NAME LIKE 'B%'")}&properties=NAME&limit=100`);
    expect(body.numberMatched).toBe(20);
    expect(body.features.every((feature) => String(feature.properties.NAME).startsWith('B'))).toBe(true);
    const both = await items('countries', `filter=${encodeURIComponent("NAME LIKE 'B%'")}&filter-lang=cql2-text&bbox=0,45,10,55&properties=NAME`);
    expect(both.body.features.map((feature) => feature.properties.NAME)).toEqual(['Belgium']);
    const pages = await allPages(`/ogc/collections/countries/items?filter=${encodeURIComponent("NAME LIKE 'B%'")}&properties=NAME&limit=6`);
    expect(pages.flatMap((page) => page.features)).toEqual(body.features);
  });
});

describe('one item', () => {
  it('is a GeoJSON Feature with the id asked for and links to itself and its collection', async () => {
    const { status, headers, body } = await get<Feature>(server, '/ogc/collections/Squares/items/2');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/geo+json');
    expect(body).toMatchObject({ type: 'Feature', id: 2, geometry: { type: 'MultiPolygon' }, properties: { NAME: 'squares 2' } });
    expect(body.links).toEqual([
      { href: server.url('/ogc/collections/Squares/items/2'), rel: 'self', type: 'application/geo+json', title: 'This feature' },
      { href: server.url('/ogc/collections/squares'), rel: 'collection', type: 'application/json', title: 'The collection' },
    ]);
  });

  it('gives points, lines and multipoints the types GDAL gives them', async () => {
    expect((await get<Feature>(server, '/ogc/collections/points/items/0')).body.geometry).toEqual({ type: 'Point', coordinates: [5.1, 52.1] });
    expect((await get<Feature>(server, '/ogc/collections/lines/items/0')).body.geometry?.type).toBe('LineString');
    expect((await get<Feature>(server, '/ogc/collections/lines/items/1')).body.geometry?.type).toBe('MultiLineString');
    expect((await get<Feature>(server, '/ogc/collections/cities/items/0')).body.geometry?.type).toBe('MultiPoint');
  });

  it('has a null geometry for a null shape', async () => {
    expect((await get<Feature>(server, '/ogc/collections/squares/items/3')).body).toMatchObject({ id: 3, geometry: null });
  });
});

describe('errors', () => {
  it.each([
    ['limit=0', "Parameter 'limit' must be a positive integer; got '0'."],
    ['limit=ten', "Parameter 'limit' must be a positive integer; got 'ten'."],
    ['offset=-1', "Parameter 'offset' must be an integer of at least 0; got '-1'."],
    ['bbox=1,2,3', "Parameter 'bbox' must be four numbers"],
    ['bbox=0,10,10,5', "Parameter 'bbox' must be four numbers"],
    ['bbox=0,0,200,10', "Parameter 'bbox' must be four numbers"],
    ['bbox=a,b,c,d', "Parameter 'bbox' must be four numbers"],
    ['datetime=yesterday', "Parameter 'datetime' must be an RFC 3339 date-time"],
    ['datetime=../..', "Parameter 'datetime' must be an RFC 3339 date-time"],
    ['properties=NOPE', "Parameter 'properties': collection 'countries' has no property 'NOPE' (its properties: NAME, NAME_NL, ISO_N3, AREA_KM2, REGION, SUBREGION, LANDLOCKED)."],
    ['filter-lang=cql2-json&filter=x', "Parameter 'filter-lang' must be 'cql2-text'"],
    ['filter=NAME%20%3D', 'Invalid filter:'],
    ['filter=NOPE%20%3D%201', "Invalid filter: unknown property 'NOPE'"],
    ['bbox-crs=EPSG:4326', "'bbox-crs' is no parameter of this resource; it takes key, f, limit, offset, bbox, datetime, properties, filter, filter-lang."],
  ])('%s: 400', async (query, description) => {
    const { status, body } = await get(server, `/ogc/collections/countries/items?${query}`);
    expect(status).toBe(400);
    expect(body.code).toBe('BadRequest');
    expect(body.description.startsWith(description), body.description).toBe(true);
  });

  it.each([
    ['countries/items/241', 'Feature 241 does not exist in shapefile'],
    ['countries/items/abc', "Collection 'countries' has no feature of that id"],
    ['deleted/items/1', 'Feature 1 of shapefile'],
    ['nothing/items', 'There is no collection of that name; GET /ogc/collections lists them.'],
    ['nothing/items/0', 'There is no collection of that name; GET /ogc/collections lists them.'],
  ])('%s: 404', async (path, description) => {
    const { status, body } = await get(server, `/ogc/collections/${path}`);
    expect(status).toBe(404);
    expect(body.code).toBe('NotFound');
    expect(body.description).toContain(description);
  });
});
