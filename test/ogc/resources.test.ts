import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, type TestServer } from '../support/server.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { get, hrefsIn, LIMITED_KEY, startOgcServer } from './support.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startOgcServer();
});
afterAll(async () => {
  await server.close();
  removeTempDirs();
});

const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
const linkTo = (document: { links: { rel: string; href: string; type?: string }[] }, rel: string) => document.links.find((link) => link.rel === rel);

describe('the landing page', () => {
  it('links to itself, the API definition, the conformance classes and the collections', async () => {
    const { status, headers, body } = await get(server, '/ogc');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/json');
    expect(body.title).toBe('shapeshot');
    const rels = Object.fromEntries(body.links.map((link: { rel: string; href: string; type: string }) => [link.rel, [link.href, link.type]]));
    expect(rels).toEqual({
      self: [server.url('/ogc'), 'application/json'],
      'service-desc': [server.url('/ogc/api'), 'application/vnd.oai.openapi+json;version=3.0'],
      conformance: [server.url('/ogc/conformance'), 'application/json'],
      data: [server.url('/ogc/collections'), 'application/json'],
      'http://www.opengis.net/def/rel/ogc/1.0/tiling-schemes': [server.url('/ogc/tileMatrixSets'), 'application/json'],
    });
  });

  it('links on the configured public URL behind a proxy (TLS, a path prefix), the query kept, the key not', async () => {
    const proxied = await startOgcServer({ ogc: { publicUrl: 'https://maps.example.org/geo/' } });
    try {
      const landing = await get(proxied, '/ogc');
      expect(linkTo(landing.body, 'data')!.href).toBe('https://maps.example.org/geo/ogc/collections');
      const page = await get(proxied, `/ogc/collections/squares/items?limit=1&key=${TEST_KEY}`);
      expect(linkTo(page.body, 'next')!.href).toBe('https://maps.example.org/geo/ogc/collections/squares/items?limit=1&offset=1');
    } finally {
      await proxied.close();
    }
  });

  it('answers a collection name that is not validly percent-encoded with 404 in its own format', async () => {
    for (const path of ['/ogc/collections/%E0', '/ogc/collections/%E0/items', '/ogc/collections/squares/items/%E0']) {
      const { status, body } = await get(server, path);
      expect(status, path).toBe(404);
      expect(body.code, path).toBe('NotFound');
    }
  });

  it('answers in any case of the path, and to HEAD', async () => {
    expect((await get(server, '/OGC/Conformance')).status).toBe(200);
    expect((await get(server, '/ogc', TEST_KEY, { method: 'HEAD' })).status).toBe(200);
  });
});

describe('the conformance classes', () => {
  it('are Core, GeoJSON, queryables and CQL2 text filters, not OpenAPI 3.0 (no HTML service-doc)', async () => {
    const { body } = await get(server, '/ogc/conformance');
    expect(body.conformsTo).toEqual(
      expect.arrayContaining([
        'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
        'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
        'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables',
        'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/features-filter',
        'http://www.opengis.net/spec/cql2/1.0/conf/cql2-text',
      ]),
    );
    expect(body.conformsTo).not.toContain('http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30');
  });
});

describe('the API definition', () => {
  it('is OpenAPI 3.0 with every route, the key as a query parameter, a header and security schemes', async () => {
    const { status, headers, body } = await get(server, '/ogc/api');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/vnd.oai.openapi+json;version=3.0');
    expect(body.openapi).toMatch(/^3\.0\./);
    expect(body.servers).toEqual([{ url: server.url('/ogc') }]);
    expect(Object.keys(body.paths).sort()).toEqual([
      '/',
      '/api',
      '/collections',
      '/collections/{collectionId}',
      '/collections/{collectionId}/items',
      '/collections/{collectionId}/items/{featureId}',
      '/collections/{collectionId}/map/tiles',
      '/collections/{collectionId}/map/tiles/{tileMatrixSetId}',
      '/collections/{collectionId}/map/tiles/{tileMatrixSetId}/{tileMatrix}/{tileRow}/{tileCol}',
      '/collections/{collectionId}/queryables',
      '/collections/{collectionId}/tiles',
      '/collections/{collectionId}/tiles/{tileMatrixSetId}',
      '/collections/{collectionId}/tiles/{tileMatrixSetId}/{tileMatrix}/{tileRow}/{tileCol}',
      '/conformance',
      '/tileMatrixSets',
      '/tileMatrixSets/{tileMatrixSetId}',
    ]);
    expect(body.components.securitySchemes).toEqual({
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      apiKeyQuery: { type: 'apiKey', in: 'query', name: 'key' },
    });
    for (const path of Object.values<{ get: { parameters: { name: string; in: string }[] } }>(body.paths)) {
      expect(path.get.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'key', in: 'query' }), expect.objectContaining({ name: 'X-API-Key', in: 'header' })]));
    }
  });

  it("is valid OpenAPI 3.0 (the validator resolves no references outside the document, so OGC's published schemas stand aside)", async () => {
    const { body } = await get(server, '/ogc/api');
    const text = JSON.stringify(body);
    const published = /\{"\$ref":"https:\/\/schemas\.opengis\.net\/ogcapi\/features\/part1\/1\.0\/openapi\/schemas\/\w+\.yaml"\}/g;
    expect(text.match(published)?.length).toBe(7);
    const result = await new Validator().validate(JSON.parse(text.replace(published, '{}')));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("declares items' parameters as the validation reads them: limit's default and maximum, bbox as four numbers", async () => {
    const { body } = await get(server, '/ogc/api');
    const parameters = Object.fromEntries(
      body.paths['/collections/{collectionId}/items'].get.parameters.map((parameter: { name: string }) => [parameter.name, parameter]),
    );
    expect(Object.keys(parameters).sort()).toEqual(['X-API-Key', 'bbox', 'collectionId', 'datetime', 'f', 'filter', 'filter-lang', 'key', 'limit', 'offset', 'properties']);
    expect(parameters.limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000, default: 10 });
    expect(parameters.offset.schema).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
    expect(parameters.bbox).toMatchObject({ style: 'form', explode: false, schema: { type: 'array', minItems: 4, maxItems: 4, items: { type: 'number' } } });
    expect(parameters['filter-lang'].schema).toMatchObject({ enum: ['cql2-text', 'cql-text'], default: 'cql2-text' });
  });

  it('declares exactly the query parameters each route takes', async () => {
    const { body } = await get(server, '/ogc/api');
    const examples: Record<string, string> = {
      f: 'json',
      key: TEST_KEY,
      limit: '2',
      offset: '1',
      bbox: '0,0,10,10',
      datetime: '2024-01-01T00:00:00Z',
      properties: 'NAME',
      filter: "NAME <> 'x'",
      'filter-lang': 'cql2-text',
    };
    for (const [template, { get: operation }] of Object.entries<{ get: { parameters: { name: string; in: string }[] } }>(body.paths)) {
      const path = `/ogc${template === '/' ? '' : template}`.replace('{collectionId}', 'squares').replace('{featureId}', '0')
        .replace('{tileMatrixSetId}', 'WebMercatorQuad').replace('{tileMatrix}', '0').replace('{tileRow}', '0').replace('{tileCol}', '0');
      const names = operation.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
      const query = new URLSearchParams(names.map((name) => [name, examples[name]]));
      expect((await get(server, `${path}?${query}`)).status, `${path}?${query}`).toBe(200);
      const unknown = await get(server, `${path}?undeclared=1`);
      expect(unknown.status, path).toBe(400);
    }
  });
});

describe('collections', () => {
  it('lists every shapefile with its extent in WGS 84 and in its own CRS, count, geometry and links', async () => {
    const { status, body } = await get(server, '/ogc/collections');
    expect(status).toBe(200);
    expect(body.collections.map((collection: { id: string }) => collection.id)).toEqual(['arctic', 'cities', 'countries', 'deleted', 'lines', 'points', 'squares', 'unplaced']);
    const squares = body.collections.find((collection: { id: string }) => collection.id === 'squares');
    expect(squares).toMatchObject({
      id: 'squares',
      title: 'squares',
      itemType: 'feature',
      crs: [CRS84],
      shapefile: { shapeType: 'Polygon', geometryTypes: ['Polygon', 'MultiPolygon'], featureCount: 6, crs: 'RD_New', bbox: [100_000, 400_000, 103_000, 401_000] },
    });
    const [[minLon, minLat, maxLon, maxLat]] = squares.extent.spatial.bbox;
    expect(squares.extent.spatial.crs).toBe(CRS84);
    // Around RD New x 100000–103000, y 400000–401000: its west edge reaches 4.593439°E at its top, its east edge 4.636880°E at its bottom (PROJ's cs2cs).
    expect([minLon, minLat, maxLon, maxLat].map((value: number) => value.toFixed(4))).toEqual(['4.5934', '51.5862', '4.6369', '51.5955']);
    expect(linkTo(squares, 'items')).toEqual({ href: server.url('/ogc/collections/squares/items'), rel: 'items', type: 'application/geo+json', title: 'Its features' });
    expect(linkTo(squares, 'http://www.opengis.net/def/rel/ogc/1.0/queryables')?.type).toBe('application/schema+json');
    // The drafts' rel, which GDAL 3.6 reads, to the same document.
    expect(linkTo(squares, 'queryables')).toMatchObject({ href: server.url('/ogc/collections/squares/queryables'), type: 'application/json' });
  });

  it('has no extent in WGS 84, and no items, when its CRS is unknown', async () => {
    const { body } = await get(server, '/ogc/collections/unplaced');
    expect(body.extent).toBeUndefined();
    expect(body.shapefile).toMatchObject({ crs: null, bbox: [1000, 2000, 1500, 2300] });
    const items = await get(server, '/ogc/collections/unplaced/items');
    expect(items).toMatchObject({ status: 400, body: { code: 'BadRequest' } });
    expect(items.body.description).toBe(
      "Collection 'unplaced' cannot be given in WGS 84: its coordinate reference system is unknown (it has no usable .prj and its coordinates are not longitude/latitude).",
    );
  });

  it('counts features less those whose .dbf row is deleted', async () => {
    const { body } = await get(server, '/ogc/collections/deleted');
    expect(body.shapefile.featureCount).toBe(3);
  });

  it('describes one collection as the list does, found in any case', async () => {
    const list = await get(server, '/ogc/collections');
    const one = await get(server, '/ogc/collections/COUNTRIES');
    expect(one.status).toBe(200);
    expect(one.body).toEqual(list.body.collections.find((collection: { id: string }) => collection.id === 'countries'));
    // Antarctica's south edge runs at 89.999°S; where it is cut at 180° d3 puts the cut on the great circle, a hair further south.
    expect(one.body.extent.spatial.bbox).toEqual([[-180, -89.99900000003859, 180, 83.59960937500003]]);
  });

  it("gives a collection's fields as queryables (JSON Schema)", async () => {
    const { status, headers, body } = await get(server, '/ogc/collections/countries/queryables');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/schema+json');
    expect(body).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: server.url('/ogc/collections/countries/queryables'),
      type: 'object',
      title: 'countries',
      properties: {
        NAME: { title: 'NAME', type: 'string' },
        NAME_NL: { title: 'NAME_NL', type: 'string' },
        ISO_N3: { title: 'ISO_N3', type: 'string' },
        AREA_KM2: { title: 'AREA_KM2', type: 'number' },
        REGION: { title: 'REGION', type: 'string' },
        SUBREGION: { title: 'SUBREGION', type: 'string' },
        LANDLOCKED: { title: 'LANDLOCKED', type: 'boolean' },
      },
      additionalProperties: false,
      queryables: [
        { id: 'NAME', type: 'string' },
        { id: 'NAME_NL', type: 'string' },
        { id: 'ISO_N3', type: 'string' },
        { id: 'AREA_KM2', type: 'number' },
        { id: 'REGION', type: 'string' },
        { id: 'SUBREGION', type: 'string' },
        { id: 'LANDLOCKED', type: 'boolean' },
      ],
    });
  });

  it('labels the queryables application/json for a client that asks for JSON and not JSON Schema (GDAL 3.6)', async () => {
    const gdal = await get(server, '/ogc/collections/countries/queryables', undefined, { headers: { Accept: 'application/geo+json, application/json' } });
    expect(gdal.headers.get('content-type')).toBe('application/json');
    expect(gdal.headers.get('vary')).toMatch(/\bAccept\b/);
    for (const accept of ['application/schema+json', '*/*', 'application/json, application/schema+json']) {
      const answer = await get(server, '/ogc/collections/countries/queryables', undefined, { headers: { Accept: accept } });
      expect(answer.headers.get('content-type'), accept).toBe('application/schema+json');
      expect(answer.body).toEqual(gdal.body);
    }
  });
});

describe('keys', () => {
  it('show a limited key only its shapefiles, and hide the others as missing', async () => {
    const { body } = await get(server, '/ogc/collections', LIMITED_KEY);
    expect(body.collections.map((collection: { id: string }) => collection.id)).toEqual(['points', 'squares']);
    expect((await get(server, '/ogc/collections/countries', LIMITED_KEY)).status).toBe(404);
    expect((await get(server, '/ogc/collections/countries/items', LIMITED_KEY)).status).toBe(404);
    expect((await get(server, '/ogc/collections/countries/items/0', LIMITED_KEY)).status).toBe(404);
    expect((await get(server, '/ogc/collections/squares/items/0', LIMITED_KEY)).status).toBe(200);
  });

  it('never appear in links, when they came as the key parameter', async () => {
    for (const path of ['/ogc', '/ogc/collections', '/ogc/collections/squares', '/ogc/collections/squares/items?limit=1&offset=1', '/ogc/collections/squares/items/0']) {
      const response = await fetch(server.url(`${path}${path.includes('?') ? '&' : '?'}key=${TEST_KEY}`));
      const body = await response.json();
      expect(response.status).toBe(200);
      const hrefs = hrefsIn(body);
      expect(hrefs.length).toBeGreaterThan(0);
      for (const href of hrefs) expect(href).not.toMatch(/key=|test-key/i);
    }
  });

  it('missing or unknown: 401 as an OGC exception', async () => {
    const missing = await fetch(server.url('/ogc/collections'));
    expect(missing.status).toBe(401);
    const { code, description } = await missing.json();
    expect(code).toBe('Unauthorized');
    // What a GDAL or QGIS user needs to go on: links never carry the key, so a header it must be.
    expect(description).toMatch(/^Parameter 'key' is required: send an access key in the X-API-Key header or as the 'key' parameter /);
    expect(description).toContain("--config GDAL_HTTP_HEADERS 'X-API-Key: <your key>'");
    expect(description).toContain('GDAL_HTTP_HEADER_FILE');
    const unknown = await get(server, '/ogc/collections', 'not-a-key');
    expect(unknown.body.code).toBe('Unauthorized');
    expect(unknown.body.description).toContain('GDAL_HTTP_HEADERS');
    expect(unknown.body.description).not.toContain('not-a-key');
  });
});

describe('errors', () => {
  it('come as OGC exceptions with the status: unknown parameter, unknown path, unknown collection, other methods', async () => {
    const unknown = await get(server, '/ogc/collections?bbox=0,0,1,1');
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('content-type')).toBe('application/json');
    expect(unknown.body).toEqual({ code: 'BadRequest', description: "'bbox' is no parameter of this resource; it takes key, f, limit, offset." });
    const path = await get(server, '/ogc/nothing');
    expect(path).toMatchObject({ status: 404, body: { code: 'NotFound' } });
    expect(path.body.description).toMatch(/^There is no resource at this path; those under \/ogc are \/ogc, .*\/ogc\/collections\/\{collectionId\}\/items\/\{featureId\}/);
    expect(path.body.description).not.toContain('nothing');
    expect(await get(server, '/ogc/collections/nothing')).toMatchObject({
      status: 404,
      body: { code: 'NotFound', description: 'There is no collection of that name; GET /ogc/collections lists them.' },
    });
    const post = await get(server, '/ogc/collections', TEST_KEY, { method: 'POST' });
    expect(post).toMatchObject({ status: 405, body: { code: 'MethodNotAllowed' } });
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('name parameters given twice with different values, without quoting a key', async () => {
    const twice = await get(server, '/ogc/collections/squares/items?limit=1&limit=2');
    expect(twice.body.description).toBe("Parameter 'limit' was given more than once with different values ('1' and '2').");
    const keys = await fetch(server.url(`/ogc?key=${TEST_KEY}&key=other-key`));
    expect((await keys.json()).description).toBe("Parameter 'key' was given more than once with different values.");
  });
});
