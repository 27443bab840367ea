/**
 * OGC API – Tiles under /ogc: the tile matrix set's numbers against WebMercatorQuad's formulas,
 * the tilesets' documents and their links, tiles that are the REST tiles byte for byte (and
 * share their ETag), the errors the standard asks for, and GDAL reading what we publish: its
 * MVT driver a tile fetched from /ogc, its tile matrix set reader our WebMercatorQuad.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_DATA_DIR } from '../../src/config/package-folders.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { get, hrefsIn } from './support.ts';

const run = promisify(execFile);

/** Web Mercator's half width, worked out here from the sphere's radius rather than taken from the code under test. */
const HALF_WORLD = Math.PI * 6378137;
const TMS_URI = 'http://www.opengis.net/def/tilematrixset/OGC/1.0/WebMercatorQuad';
const TILING_SCHEME = 'http://www.opengis.net/def/rel/ogc/1.0/tiling-scheme';
const MVT = 'application/vnd.mapbox-vector-tile';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startServer();
  dir = makeTempDir('shapeshot-ogc-tiles-');
});
afterAll(async () => {
  await server?.close();
  removeTempDirs();
});

interface Link {
  href: string;
  rel: string;
  type?: string;
  templated?: boolean;
}
const linkTo = (document: { links: Link[] }, rel: string, type?: string) => document.links.find((link) => link.rel === rel && (type === undefined || link.type === type));

/** GET with the key in the header, the body as bytes. */
async function bytes(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const response = await fetch(server.url(path), { headers: { 'X-API-Key': TEST_KEY, ...headers } });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

describe('the tile matrix set', () => {
  it('is listed at /ogc/tileMatrixSets, linked from the landing page, and its link resolves', async () => {
    const landing = await get(server, '/ogc');
    const schemes = linkTo(landing.body, 'http://www.opengis.net/def/rel/ogc/1.0/tiling-schemes')!;
    expect(schemes.href).toBe(server.url('/ogc/tileMatrixSets'));
    const list = await get(server, schemes.href);
    expect(list.status).toBe(200);
    expect(list.body.tileMatrixSets).toHaveLength(1);
    const [entry] = list.body.tileMatrixSets;
    expect(entry).toMatchObject({ id: 'WebMercatorQuad', uri: TMS_URI, crs: 'http://www.opengis.net/def/crs/EPSG/0/3857' });
    expect((await get(server, linkTo(entry, 'self')!.href)).body.id).toBe('WebMercatorQuad');
  });

  it('has the numbers of WebMercatorQuad at every zoom 0–22', async () => {
    const { status, headers, body } = await get(server, '/ogc/tileMatrixSets/WebMercatorQuad');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/json');
    expect(body).toMatchObject({ id: 'WebMercatorQuad', uri: TMS_URI, crs: 'http://www.opengis.net/def/crs/EPSG/0/3857', orderedAxes: ['X', 'Y'] });
    expect(body.tileMatrices.map((matrix: { id: string }) => matrix.id)).toEqual(Array.from({ length: 23 }, (_, z) => String(z)));
    for (const [z, matrix] of body.tileMatrices.entries()) {
      const cellSize = (2 * HALF_WORLD) / 256 / 2 ** z;
      expect(matrix.cellSize).toBeCloseTo(cellSize, 9);
      expect(matrix.scaleDenominator / (cellSize / 0.00028)).toBeCloseTo(1, 12);
      expect(matrix).toMatchObject({ cornerOfOrigin: 'topLeft', tileWidth: 256, tileHeight: 256, matrixWidth: 2 ** z, matrixHeight: 2 ** z });
      expect(matrix.pointOfOrigin[0]).toBeCloseTo(-HALF_WORLD, 6);
      expect(matrix.pointOfOrigin[1]).toBeCloseTo(HALF_WORLD, 6);
    }
    // The published values of zoom 0 (OGC 17-083r4, Annex D).
    expect(body.tileMatrices[0].scaleDenominator).toBeCloseTo(559082264.0287178, 4);
    expect(body.tileMatrices[0].cellSize).toBeCloseTo(156543.033928041, 6);
  });

  it('answers another tile matrix set with 404 in its own format; the id is matched in any case', async () => {
    const unknown = await get(server, '/ogc/tileMatrixSets/WorldCRS84Quad');
    expect(unknown).toMatchObject({ status: 404, body: { code: 'NotFound' } });
    expect(unknown.body.description).toContain('WebMercatorQuad');
    expect((await get(server, '/ogc/collections/countries/tiles/WorldCRS84Quad')).status).toBe(404);
    expect((await get(server, '/ogc/collections/countries/tiles/WorldCRS84Quad/0/0/0')).status).toBe(404);
    expect((await get(server, '/ogc/tilematrixsets/webmercatorquad')).status).toBe(200);
  });

  it('is read by GDAL 3.6 as the grid we tile in (a COG tiled by it lies on our zoom 3, column 4, row 3)', async () => {
    const definition = join(dir, 'WebMercatorQuad.json');
    writeFileSync(definition, JSON.stringify((await get(server, '/ogc/tileMatrixSets/WebMercatorQuad')).body));
    const source = join(dir, 'small.tif');
    const tiled = join(dir, 'tiled.tif');
    await run('gdal_create', ['-of', 'GTiff', '-outsize', '64', '64', '-bands', '1', '-a_srs', 'EPSG:4326', '-a_ullr', '1', '9', '9', '1', source]);
    await run('gdal_translate', ['-q', '-of', 'COG', '-co', `TILING_SCHEME=${definition}`, source, tiled]);
    const { stdout } = await run('gdalinfo', ['-json', tiled]);
    const info = JSON.parse(stdout) as { geoTransform: number[]; size: number[] };
    // Zoom 3 (cells of 2·HALF_WORLD/256/8 m), one tile: column 4 (from 0°E), row 3 (from 0°N down).
    const cell = (2 * HALF_WORLD) / 256 / 8;
    expect(info.size).toEqual([256, 256]);
    expect(info.geoTransform[1]).toBeCloseTo(cell, 6);
    expect(info.geoTransform[0]).toBeCloseTo(-HALF_WORLD + 4 * 256 * cell, 3);
    expect(info.geoTransform[3]).toBeCloseTo(HALF_WORLD - 3 * 256 * cell, 3);
  });
});

describe("a collection's tilesets", () => {
  it('are linked from the collection, vector and map, and list WebMercatorQuad', async () => {
    const collection = await get(server, '/ogc/collections/benelux_rd');
    const vector = linkTo(collection.body, 'http://www.opengis.net/def/rel/ogc/1.0/tilesets-vector')!;
    const map = linkTo(collection.body, 'http://www.opengis.net/def/rel/ogc/1.0/tilesets-map')!;
    expect([vector.href, vector.type]).toEqual([server.url('/ogc/collections/benelux_rd/tiles'), 'application/json']);
    expect([map.href, map.type]).toEqual([server.url('/ogc/collections/benelux_rd/map/tiles'), 'application/json']);
    for (const [link, dataType] of [
      [vector, 'vector'],
      [map, 'map'],
    ] as const) {
      const list = await get(server, link.href);
      expect(list.status).toBe(200);
      expect(list.body.tilesets).toHaveLength(1);
      expect(list.body.tilesets[0]).toMatchObject({ dataType, crs: 'http://www.opengis.net/def/crs/EPSG/0/3857', tileMatrixSetURI: TMS_URI });
      expect(linkTo(list.body.tilesets[0], 'self')!.href).toBe(`${link.href}/WebMercatorQuad`);
    }
  });

  it('describe the vector tiles: the templated tile link, the tiling scheme, the layer and where it has tiles', async () => {
    const { status, body } = await get(server, '/ogc/collections/benelux_rd/tiles/WebMercatorQuad');
    expect(status).toBe(200);
    expect(body).toMatchObject({ dataType: 'vector', tileMatrixSetURI: TMS_URI });
    expect(linkTo(body, 'item')).toMatchObject({ href: server.url('/ogc/collections/benelux_rd/tiles/WebMercatorQuad/{tileMatrix}/{tileRow}/{tileCol}'), type: MVT, templated: true });
    expect(linkTo(body, TILING_SCHEME)).toMatchObject({ href: server.url('/ogc/tileMatrixSets/WebMercatorQuad'), type: 'application/json' });
    expect(body.layers).toEqual([expect.objectContaining({ id: 'benelux_rd', dataType: 'vector', geometryDimension: 2 })]);
    // Benelux (2.5–7.2°E, 49.4–53.6°N) lies in tile 16,10 at zoom 5, and in column 0, row 0 at zoom 0.
    expect(body.tileMatrixSetLimits[0]).toEqual({ tileMatrix: '0', minTileRow: 0, maxTileRow: 0, minTileCol: 0, maxTileCol: 0 });
    expect(body.tileMatrixSetLimits[5]).toEqual({ tileMatrix: '5', minTileRow: 10, maxTileRow: 10, minTileCol: 16, maxTileCol: 16 });
    expect(body.tileMatrixSetLimits).toHaveLength(23);
  });

  it('link only to resources that answer', async () => {
    for (const path of ['/ogc/collections/benelux_rd/tiles/WebMercatorQuad', '/ogc/collections/benelux_rd/map/tiles/WebMercatorQuad']) {
      const { body } = await get(server, path);
      for (const href of hrefsIn(body)) {
        const filled = href.replace('{tileMatrix}', '5').replace('{tileRow}', '10').replace('{tileCol}', '16');
        expect((await bytes(new URL(filled).pathname)).status, filled).toBe(200);
      }
    }
  });
});

describe('a tile', () => {
  it('is the REST vector tile, byte for byte, under the same ETag; a current copy is a 304', async () => {
    const ogc = await bytes('/ogc/collections/benelux_rd/tiles/WebMercatorQuad/5/10/16');
    const rest = await bytes('/REST/v1/shapefiles/tiles/benelux_rd/5/16/10.mvt');
    expect(ogc.status).toBe(200);
    expect(ogc.headers.get('content-type')).toBe(MVT);
    expect(ogc.body.length).toBeGreaterThan(100);
    expect(ogc.body.equals(rest.body)).toBe(true);
    expect(ogc.headers.get('etag')).toBe(rest.headers.get('etag'));
    const again = await bytes('/ogc/collections/benelux_rd/tiles/WebMercatorQuad/5/10/16', { 'If-None-Match': ogc.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('is the REST map tile as a PNG under /map/tiles', async () => {
    const ogc = await bytes('/ogc/collections/benelux_rd/map/tiles/WebMercatorQuad/5/10/16');
    const rest = await bytes('/REST/v1/shapefiles/tiles/benelux_rd/5/16/10.png');
    expect(ogc.headers.get('content-type')).toBe('image/png');
    expect(ogc.body.equals(rest.body)).toBe(true);
  });

  it('answers an address outside the tile matrix set with 404, a parameter it does not take with 400', async () => {
    for (const path of ['23/0/0', '5/32/0', '5/0/32', 'x/0/0', '5/-1/0', '5/0/1.5']) {
      const { status, body } = await get(server, `/ogc/collections/benelux_rd/tiles/WebMercatorQuad/${path}`);
      expect(status, path).toBe(404);
      expect(body.code, path).toBe('NotFound');
    }
    const unknown = await get(server, '/ogc/collections/benelux_rd/tiles/WebMercatorQuad/0/0/0?fields=NAME');
    expect(unknown).toMatchObject({ status: 400, body: { code: 'BadRequest' } });
    expect((await get(server, '/ogc/collections/nothing/tiles/WebMercatorQuad/0/0/0')).status).toBe(404);
  });

  it('is read by GDAL: the features of the shapefile in that tile, each with its fid', async () => {
    const tile = join(dir, 'benelux.mvt');
    writeFileSync(tile, (await bytes('/ogc/collections/benelux_rd/tiles/WebMercatorQuad/5/10/16')).body);
    const fids = async (...args: string[]) => {
      const { stdout } = await run('ogrinfo', ['-ro', '-al', '-q', ...args]);
      return [...stdout.matchAll(/^OGRFeature\(\w+\):(\d+)$/gm)].map((match) => Number(match[1])).sort((a, b) => a - b);
    };
    const inTile = await fids('-oo', 'X=16', '-oo', 'Y=10', '-oo', 'Z=5', `MVT:${tile}`);
    // The whole of benelux_rd lies inside that tile: every one of its features is there.
    const inFile = await fids(join(SAMPLE_DATA_DIR, 'benelux_rd.shp'));
    expect(inTile.length).toBeGreaterThan(0);
    expect(inTile).toEqual(inFile);
  });
});

describe('the API definition', () => {
  it('lists the tiles paths', async () => {
    const { body } = await get(server, '/ogc/api');
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        '/tileMatrixSets',
        '/tileMatrixSets/{tileMatrixSetId}',
        '/collections/{collectionId}/tiles',
        '/collections/{collectionId}/tiles/{tileMatrixSetId}',
        '/collections/{collectionId}/tiles/{tileMatrixSetId}/{tileMatrix}/{tileRow}/{tileCol}',
        '/collections/{collectionId}/map/tiles/{tileMatrixSetId}/{tileMatrix}/{tileRow}/{tileCol}',
      ]),
    );
    const tile = body.paths['/collections/{collectionId}/tiles/{tileMatrixSetId}/{tileMatrix}/{tileRow}/{tileCol}'].get;
    expect(tile.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(['collectionId', 'tileMatrixSetId', 'tileMatrix', 'tileRow', 'tileCol', 'key', 'X-API-Key']);
    expect(Object.keys(tile.responses[200].content)).toEqual([MVT]);
  });

  it('has the conformance classes of Tiles and of the tile matrix set', async () => {
    const { body } = await get(server, '/ogc/conformance');
    expect(body.conformsTo).toEqual(
      expect.arrayContaining([
        'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/core',
        'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/mvt',
        'http://www.opengis.net/spec/tms/2.0/conf/json-tilematrixset',
      ]),
    );
  });
});
