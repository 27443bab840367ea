import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';

/**
 * /openapi.json is generated from the zod schemas that validate the queries: it must be
 * valid OpenAPI 3.1, name every parameter of the interface with the configured limits, show
 * defaults that are the defaults, and describe the envelopes real answers have. /docs works
 * offline.
 */
let server: TestServer;
let document: Record<string, any>;
beforeAll(async () => {
  server = await startServer({ limits: { maxIds: 77, maxSize: 2000 } });
  const response = await fetch(server.url('/openapi.json'));
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('application/vnd.oai.openapi+json');
  document = await response.json();
});
afterAll(() => server.close());

const parametersOf = (path: string) => document.paths[path].get.parameters as { name: string; required: boolean; description?: string; schema: Record<string, any> }[];
const IMAGES = '/REST/v1/shapefiles/images';
const MAP = '/REST/v1/shapefiles/map';

describe('/openapi.json', () => {
  it('is valid OpenAPI 3.1, served without a key', async () => {
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('describes every route: the operations, /ogc, and the public routes without a key', () => {
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        IMAGES, MAP, '/REST/v1/shapefiles/legend', '/REST/v1/usage', '/ogc', '/ogc/api', '/ogc/conformance', '/ogc/collections', '/ogc/collections/{collectionId}',
        '/ogc/collections/{collectionId}/queryables', '/ogc/collections/{collectionId}/items',
        '/ogc/collections/{collectionId}/items/{featureId}', '/', '/docs', '/openapi.json', '/health', '/ready', '/metrics',
        '/REST/v1/shapefiles/tiles/{file}/{z}/{x}/{y}.png', '/REST/v1/shapefiles/tiles/{file}/{z}/{x}/{y}.mvt',
        '/REST/v1/shapefiles/tiles/{file}.json', '/REST/v1/shapefiles/tiles/{file}/style.json', '/REST/v1/basemap/{type}/{z}/{x}/{y}.png',
        '/ogc/tileMatrixSets', '/ogc/tileMatrixSets/{tileMatrixSetId}', '/ogc/collections/{collectionId}/tiles',
        '/ogc/collections/{collectionId}/tiles/{tileMatrixSetId}', '/ogc/collections/{collectionId}/tiles/{tileMatrixSetId}/{tileMatrix}/{tileRow}/{tileCol}',
        '/ogc/collections/{collectionId}/map/tiles', '/ogc/collections/{collectionId}/map/tiles/{tileMatrixSetId}',
        '/ogc/collections/{collectionId}/map/tiles/{tileMatrixSetId}/{tileMatrix}/{tileRow}/{tileCol}',
      ].sort(),
    );
    for (const path of ['/', '/docs', '/openapi.json', '/health', '/ready', '/metrics']) expect(document.paths[path].get.security, path).toEqual([]);
    const items = document.paths['/ogc/collections/{collectionId}/items'].get.parameters.map((parameter: { name: string }) => parameter.name);
    expect(items).toEqual(expect.arrayContaining(['bbox', 'limit', 'offset', 'properties', 'filter', 'filter-lang']));
  });

  it('names every parameter of the images operation, spelled as the interface spells them', () => {
    expect(parametersOf(IMAGES).map((parameter) => parameter.name).sort()).toEqual(
      [
        'file', 'fid', 'where', 'size', 'buffer', 'singleImage', 'includeHotSpots', 'hotSpotFields', 'theme', 'reduceTol', 'noCache',
        'format', 'scale', 'lineColor', 'lineWidth', 'fillColor', 'bgColor1', 'bgColor2', 'bgAngle', 'grid', 'gridColor', 'gridSpace',
        'styleBy', 'classify', 'classes', 'palette', 'reversePalette', 'nullColor', 'labelField', 'labelSize', 'labelColor', 'labelHalo',
        'legend', 'legendPosition',
      ].sort(),
    );
    expect(parametersOf(MAP).map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(['file', 'fid', 'where', 'culture', 'type', 'lineColor', 'lineWidth', 'useBoundingBox', 'zoom', 'styleBy', 'legend']),
    );
  });

  it('states the configured limits, the enumerations and the key as security, not as a parameter', () => {
    const byName = new Map(parametersOf(IMAGES).map((parameter) => [parameter.name, parameter]));
    expect(byName.get('fid')!.description).toContain('at most 77 feature ids');
    expect(byName.get('size')!.description).toContain('from 1 to 2000');
    expect(byName.get('lineWidth')!.schema).toMatchObject({ type: 'integer', minimum: 0, maximum: 100 });
    expect(byName.get('theme')!.schema.enum).toContain('SteelGrid');
    expect(byName.get('file')!.required).toBe(true);
    expect(byName.has('key')).toBe(false);
    expect(document.components.securitySchemes).toEqual({
      keyParameter: { type: 'apiKey', in: 'query', name: 'key' },
      keyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    });
    expect(Object.keys(document.paths[IMAGES].get.responses)).toEqual(['200', '304', '400', '401', '403', '404', '414', '429', '431', '500', '503']);
  });

  it('shows defaults that are the defaults: sending one changes nothing', async () => {
    const png = async (query: Record<string, string | number>) => {
      const params = new URLSearchParams({ key: TEST_KEY, file: 'countries', fid: '3', format: 'png', ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
      const response = await fetch(server.url(`${IMAGES}?${params}`));
      expect(response.status).toBe(200);
      return Buffer.from(await response.arrayBuffer());
    };
    const plain = await png({});
    const defaults = parametersOf(IMAGES).filter((parameter) => parameter.schema.default !== undefined && parameter.name !== 'format');
    expect(defaults.length).toBeGreaterThan(10);
    for (const { name, schema } of defaults) expect(await png({ [name]: schema.default }), name).toEqual(plain);
  });

  it('describes the JSON envelope that answers and errors really have', async () => {
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile({ $id: 'urn:shapeshot:api', components: document.components, $ref: '#/components/schemas/Response' });
    const answers = [
      `${IMAGES}?file=countries&fid=0,3.1&includeHotSpots=1&hotSpotFields=NAME&format=json`,
      `${MAP}?file=countries&fid=3&format=json`,
      `${IMAGES}?file=countries&format=json`,
      `${IMAGES}?file=nowhere&fid=0&format=json`,
      '/REST/v1/usage?format=json',
    ];
    for (const path of answers) {
      const body = await (await fetch(server.url(`${path}&key=${TEST_KEY}`))).json();
      expect(validate(body) ? [] : validate.errors, path).toEqual([]);
    }
  });
});

describe('/docs', () => {
  it('is a page whose every asset this server serves (it works offline)', async () => {
    const response = await fetch(server.url('/docs'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await response.text();
    expect(html).not.toMatch(/https?:\/\//);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]).filter((asset) => !asset.startsWith('data:'));
    expect(assets).toHaveLength(3);
    for (const asset of assets) {
      const answer = await fetch(server.url(asset));
      expect(answer.status, asset).toBe(200);
      expect((await answer.arrayBuffer()).byteLength, asset).toBeGreaterThan(50);
    }
  });
});
