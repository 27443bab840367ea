/**
 * The tiles' interface as a client meets it (docs/tiles.md): errors naming what is wrong, the
 * empty tile of a place the layer does not reach, caching, classes of the whole layer rather
 * than of one tile, `where=` and `fields=`, the budgets' stated behaviour (never a blank 200
 * for a tile with features), TileJSON and the MapLibre style. Shapefiles written by ogr2ogr.
 */
import { VectorTile } from '@mapbox/vector-tile';
import { writeFileSync } from 'node:fs';
import { FEATURE_CACHE_MISSES } from '../../src/job-context/context.ts';
import { join } from 'node:path';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePng, hexColour } from '../support/png.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { tileAt, tileUrl, writeShapefile } from '../support/tiles.ts';

/** A square of `side` degrees with its south-west corner at (lon, lat). */
const square = (lon: number, lat: number, side: number) => [
  [
    [lon, lat],
    [lon, lat + side],
    [lon + side, lat + side],
    [lon + side, lat],
    [lon, lat],
  ],
];

/** Four squares in the Netherlands, VALUE 1 to 4; 3 and 4 lie side by side, far from 1 and 2. */
const SQUARES = [
  { lon: 4.3, lat: 52.0, value: 1, name: 'Delft' },
  { lon: 6.5, lat: 53.2, value: 2, name: 'Groningen' },
  { lon: 5.1, lat: 52.08, value: 3, name: 'Utrecht' },
  { lon: 5.13, lat: 52.08, value: 4, name: 'Zeist' },
];
/** The tile that holds squares 3 and 4 and no other. */
const PAIR_TILE = tileAt(5.12, 52.09, 11);
const FAR_TILE = tileAt(-70, -30, 11);

let folder: string;
let server: TestServer;

beforeAll(async () => {
  folder = makeTempDir('shapeshot-tiles-api-');
  const source = join(folder, 'squares.geojson');
  const features = SQUARES.map(({ lon, lat, value, name }) => ({
    type: 'Feature',
    properties: { VALUE: value, NAME: name },
    geometry: { type: 'Polygon', coordinates: square(lon, lat, 0.01) },
  }));
  writeFileSync(source, JSON.stringify({ type: 'FeatureCollection', features }));
  await writeShapefile(folder, 'squares', source, ['-s_srs', 'EPSG:4326', '-t_srs', 'EPSG:28992']);
  // One square of 30 degrees, far larger than any tile at zoom 16.
  const large = join(folder, 'large.geojson');
  writeFileSync(large, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { NAME: 'large' }, geometry: { type: 'Polygon', coordinates: square(-40, -20, 30) } }] }));
  await writeShapefile(folder, 'large', large, ['-a_srs', 'EPSG:4326', '-segmentize', '0.01']);
  // 2,000 squares of one metre and 2,000 lines of one metre, spread over the Netherlands.
  const tiny = join(folder, 'tiny.csv');
  const rows = ['WKT,ID'];
  for (let i = 0; i < 2000; i++) {
    const [x, y] = [20_000 + (i % 50) * 5_000, 320_000 + Math.floor(i / 50) * 7_000];
    rows.push(`"POLYGON ((${x} ${y},${x} ${y + 1},${x + 1} ${y + 1},${x + 1} ${y},${x} ${y}))",${i}`);
  }
  writeFileSync(tiny, rows.join('\n'));
  await writeShapefile(folder, 'tiny', tiny, ['-a_srs', 'EPSG:28992', '-oo', 'GEOM_POSSIBLE_NAMES=WKT', '-oo', 'KEEP_GEOM_COLUMNS=NO']);
  server = await startServer({ dataDir: folder, render: { workers: 1 }, limits: { maxTileFeatures: 100 } });
});

afterAll(async () => {
  await server?.close();
  removeTempDirs();
});

/** The tile's layer as @mapbox/vector-tile reads it: its features' ids and properties. */
function vectorFeatures(bytes: Uint8Array, layer = 'squares') {
  const tile = new VectorTile(new PbfReader(bytes));
  const found = tile.layers[layer];
  if (!found) return [];
  return Array.from({ length: found.length }, (_, i) => found.feature(i)).map((feature) => ({ id: feature.id, properties: feature.properties, type: feature.type }));
}

/** The colours of a PNG's opaque pixels, with how many pixels each paints. */
function opaqueColours(bytes: Uint8Array): Map<string, number> {
  const png = decodePng(bytes);
  const colours = new Map<string, number>();
  for (let i = 0; i < png.width * png.height; i++) {
    if (png.data[4 * i + 3] !== 255) continue;
    const colour = hexColour(Array.from(png.data.subarray(4 * i, 4 * i + 3)));
    colours.set(colour, (colours.get(colour) ?? 0) + 1);
  }
  return colours;
}

describe('tile addresses and errors', () => {
  it.each([
    ['23/0/0.png', /zoom must be 0 to 22; got 23/],
    ['3/8/0.png', /column \(x\) must be 0 to 7 at zoom 3; got 8/],
    ['3/0/8.mvt', /row \(y\) must be 0 to 7 at zoom 3; got 8/],
    ['3/0/0@2x.mvt', /vector tile has no @2x/],
    ['3/0/0.jpg', /must be \{y\}\.png, \{y\}@2x\.png or \{y\}\.mvt/],
    ['3/a/0.png', /column \(x\) must be a whole number; got 'a'/],
  ])('%s is a 400 naming the problem', async (path, message) => {
    const response = await fetch(server.url(`/REST/v1/shapefiles/tiles/squares/${path}?key=${TEST_KEY}&format=json`));
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(message);
  });

  it('a file that does not exist is a 404, a misspelled parameter a 400, no key a 401', async () => {
    const missing = await fetch(server.url(`/REST/v1/shapefiles/tiles/nosuch/3/0/0.png?key=${TEST_KEY}`));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("Shapefile 'nosuch' was not found.");
    const misspelled = await fetch(tileUrl(server, 'squares', PAIR_TILE, 'png', { lineColour: 'blue' }));
    expect(misspelled.status).toBe(400);
    expect(await misspelled.text()).toMatch(/lineColour.*did you mean 'lineColor'/);
    expect((await fetch(server.url('/REST/v1/shapefiles/tiles/squares/3/0/0.png'))).status).toBe(401);
  });

  it('a field that fields= or where= names and the file has not is a 400 on every tile, the TileJSON and the style', async () => {
    for (const tile of [PAIR_TILE, FAR_TILE]) {
      const response = await fetch(tileUrl(server, 'squares', tile, 'mvt', { fields: 'NAME,POPULATION' }));
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(/no field 'POPULATION' \(its fields: VALUE, NAME\)/);
      expect((await fetch(tileUrl(server, 'squares', tile, 'png', { where: 'POPULATION > 3' }))).status).toBe(400);
    }
    for (const path of ['squares.json', 'squares/style.json']) {
      expect((await fetch(server.url(`/REST/v1/shapefiles/tiles/${path}?key=${TEST_KEY}&fields=POPULATION`))).status).toBe(400);
      expect((await fetch(server.url(`/REST/v1/shapefiles/tiles/${path}?key=${TEST_KEY}&where=POPULATION%3E3`))).status).toBe(400);
    }
  });
});

describe('raster and vector tiles', () => {
  it('a tile holding features draws them at 256 px, 512 px at @2x', async () => {
    const one = await fetch(tileUrl(server, 'squares', PAIR_TILE, 'png'));
    expect(one.headers.get('content-type')).toBe('image/png');
    const png = decodePng(new Uint8Array(await one.arrayBuffer()));
    expect([png.width, png.height]).toEqual([256, 256]);
    // The default style of images: #D3D3D3 fill, red outline.
    const colours = opaqueColours(await (await fetch(tileUrl(server, 'squares', PAIR_TILE, '@2x.png'))).bytes());
    expect(colours.get('#d3d3d3')).toBeGreaterThan(1000);
    expect(colours.get('#ff0000')).toBeGreaterThan(100);
    expect(decodePng(await (await fetch(tileUrl(server, 'squares', PAIR_TILE, '@2x.png'))).bytes()).width).toBe(512);
  });

  it("a tile deep inside a polygon far larger than it is drawn, whatever the polygon's whole outline would cost", async () => {
    const inside = tileAt(-25, -5, 16);
    const response = await fetch(tileUrl(server, 'large', inside, 'png'));
    expect(response.status).toBe(200);
    const colours = opaqueColours(await response.bytes());
    // All fill, no outline: the polygon's edges are far away.
    expect(colours.get('#d3d3d3')).toBe(256 * 256);
    expect(decodePng(await (await fetch(tileUrl(server, 'large', inside, '@2x.png'))).bytes()).pixel(0, 0)).toEqual([211, 211, 211, 255]);
  });

  it('a vector tile carries the features in it, their fids as ids, and only the fields asked for', async () => {
    const plain = vectorFeatures(await (await fetch(tileUrl(server, 'squares', PAIR_TILE, 'mvt'))).bytes());
    expect(plain.map((feature) => feature.id).sort()).toEqual([2, 3]);
    expect(plain.every((feature) => Object.keys(feature.properties).length === 0 && feature.type === 3)).toBe(true);
    const named = vectorFeatures(await (await fetch(tileUrl(server, 'squares', PAIR_TILE, 'mvt', { fields: 'name' }))).bytes());
    expect(named.map((feature) => feature.properties).sort((a, b) => String(a.NAME).localeCompare(String(b.NAME)))).toEqual([{ NAME: 'Utrecht' }, { NAME: 'Zeist' }]);
  });

  it('keeps every feature far smaller than a tile unit: 2,000 squares of a metre at zoom 5, none lost', async () => {
    // Within the default budgets (this file's server draws at most 100 features a tile).
    const roomy = await startServer({ dataDir: folder, render: { workers: 1 } });
    try {
      const features = vectorFeatures(await (await fetch(tileUrl(roomy, 'tiny', tileAt(5.3, 52.2, 5), 'mvt'))).bytes(), 'tiny');
      expect(features).toHaveLength(2000);
      expect(new Set(features.map((feature) => feature.id)).size).toBe(2000);
      expect(features.every((feature) => feature.type === 3)).toBe(true);
    } finally {
      await roomy.close();
    }
  });

  it('where= leaves out the features it does not select', async () => {
    const selected = vectorFeatures(await (await fetch(tileUrl(server, 'squares', PAIR_TILE, 'mvt', { where: 'VALUE = 4' }))).bytes());
    expect(selected.map((feature) => feature.id)).toEqual([3]);
    const none = await fetch(tileUrl(server, 'squares', PAIR_TILE, 'png', { where: 'VALUE = 1' }));
    expect(opaqueColours(await none.bytes()).size).toBe(0);
  });

  it('a tile the layer does not reach is empty: transparent, or a vector tile without features', async () => {
    const png = decodePng(await (await fetch(tileUrl(server, 'squares', FAR_TILE, 'png'))).bytes());
    expect(png.data.every((value, i) => i % 4 !== 3 || value === 0)).toBe(true);
    const mvt = await fetch(tileUrl(server, 'squares', FAR_TILE, 'mvt'));
    expect(mvt.status).toBe(200);
    expect(mvt.headers.get('content-type')).toBe('application/vnd.mapbox-vector-tile');
    expect(vectorFeatures(await mvt.bytes())).toEqual([]);
  });

  it('classes are those of the whole layer, not of the features of one tile', async () => {
    const query = { styleBy: 'VALUE', classify: 'equal', classes: '4', palette: 'Blues' };
    const legend = await (await fetch(server.url(`/REST/v1/shapefiles/legend?${new URLSearchParams({ key: TEST_KEY, file: 'squares', format: 'json', ...query })}`))).json();
    const colours = (legend.Resource?.Legend?.Classes ?? legend.legend?.classes ?? []).map((entry: { Color?: string; color?: string }) => (entry.Color ?? entry.color)!.toLowerCase());
    expect(colours).toHaveLength(4);
    const painted = opaqueColours(await (await fetch(tileUrl(server, 'squares', PAIR_TILE, 'png', query))).bytes());
    // Squares 3 and 4 are the layer's third and fourth classes; a tile's own classes would make them its first and last.
    expect(painted.get(colours[2])).toBeGreaterThan(100);
    expect(painted.get(colours[3])).toBeGreaterThan(100);
    expect(painted.has(colours[0])).toBe(false);
    const classed = vectorFeatures(await (await fetch(tileUrl(server, 'squares', PAIR_TILE, 'mvt', query))).bytes());
    expect(Object.fromEntries(classed.map((feature) => [feature.id, feature.properties.shapeshot_class]))).toEqual({ 2: 2, 3: 3 });
  });
});

describe('budgets', () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startServer({ dataDir: folder, render: { workers: 1 }, limits: { maxTileFeatures: 1 } });
  });
  afterAll(() => small?.close());

  it('fields past maxHotSpotAttributeBytes are a 400 naming the limit, not a tile without them', async () => {
    const narrow = await startServer({ dataDir: folder, render: { workers: 1 }, limits: { maxHotSpotAttributeBytes: 100 } });
    try {
      const response = await fetch(tileUrl(narrow, 'squares', PAIR_TILE, 'mvt', { fields: 'NAME' }));
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('limits.maxHotSpotAttributeBytes');
      expect((await fetch(tileUrl(narrow, 'squares', PAIR_TILE, 'mvt'))).status).toBe(200);
    } finally {
      await narrow.close();
    }
  });

  it('past maxTileFeatures a tile is drawn from the index alone, never blank', async () => {
    const colours = opaqueColours(await (await fetch(tileUrl(small, 'squares', PAIR_TILE, 'png'))).bytes());
    // Each square's box, in the outline colour.
    expect(colours.get('#ff0000')).toBeGreaterThan(500);
    const features = vectorFeatures(await (await fetch(tileUrl(small, 'squares', PAIR_TILE, 'mvt'))).bytes());
    expect(features).toHaveLength(1);
    expect(features[0].type).toBe(3);
    // where= narrows before the budget is counted: of the two squares one is left, drawn as ever.
    const selected = vectorFeatures(await (await fetch(tileUrl(small, 'squares', PAIR_TILE, 'mvt', { where: 'VALUE = 4' }))).bytes());
    expect(selected.map((feature) => feature.id)).toEqual([3]);
    // A tile within the budget is drawn as ever.
    const one = tileAt(4.305, 52.005, 11);
    expect(opaqueColours(await (await fetch(tileUrl(small, 'squares', one, 'png'))).bytes()).get('#d3d3d3')).toBeGreaterThan(100);
  });
});

describe('a tile of a large file', () => {
  let large: TestServer;
  /** 20,000 squares of 50 m, 100 m apart, in rows of 200 over RD New. */
  const COLUMNS = 200;
  const ROWS = 100;
  beforeAll(async () => {
    const source = join(folder, 'grid.csv');
    const lines = ['WKT,ID'];
    for (let row = 0; row < ROWS; row++) {
      for (let column = 0; column < COLUMNS; column++) {
        const [x, y] = [100_000 + column * 100, 400_000 + row * 100];
        lines.push(`"POLYGON ((${x} ${y},${x} ${y + 50},${x + 50} ${y + 50},${x + 50} ${y},${x} ${y}))",${row * COLUMNS + column}`);
      }
    }
    writeFileSync(source, lines.join('\n'));
    const gridFolder = makeTempDir('shapeshot-tiles-grid-');
    await writeShapefile(gridFolder, 'grid', source, ['-a_srs', 'EPSG:28992', '-oo', 'GEOM_POSSIBLE_NAMES=WKT', '-oo', 'KEEP_GEOM_COLUMNS=NO']);
    large = await startServer({ dataDir: gridFolder, render: { workers: 1 } });
  });
  afterAll(() => large?.close());

  it('reads only the records it shows: the spatial index finds them, no walk over the others', async () => {
    const misses = () => large.services.jobs.stats.counts[FEATURE_CACHE_MISSES] ?? 0;
    // The first tile of the file builds its index (one walk over the record headers).
    await (await fetch(tileUrl(large, 'grid', tileAt(4.65, 51.6, 16), 'mvt'))).bytes();
    for (const [lon, lat] of [[4.7, 51.62], [4.8, 51.65]]) {
      const before = misses();
      const features = vectorFeatures(await (await fetch(tileUrl(large, 'grid', tileAt(lon, lat, 16), 'mvt'))).bytes(), 'grid');
      expect(features.length).toBeGreaterThan(0);
      expect(features.length).toBeLessThan(50);
      // One record read and decoded for each feature the tile holds, of 20,000.
      expect(misses() - before).toBe(features.length);
    }
  });
});

describe('caching', () => {
  it('a tile has a strong ETag of its file and parameters, and a current copy gets 304', async () => {
    const url = tileUrl(server, 'squares', PAIR_TILE, 'png');
    const first = await fetch(url);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    expect((await fetch(url, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    const other = await fetch(tileUrl(server, 'squares', PAIR_TILE, 'png', { lineColor: 'blue' }));
    expect(other.headers.get('etag')).not.toBe(etag);
    const vector = await fetch(tileUrl(server, 'squares', PAIR_TILE, 'mvt'));
    expect(vector.headers.get('etag')).not.toBe(etag);
  });
});

describe('TileJSON and the style', () => {
  it("TileJSON names the layer's tiles with the request's parameters, its bounds and its fields", async () => {
    const response = await fetch(server.url(`/REST/v1/shapefiles/tiles/squares.json?key=${TEST_KEY}&styleBy=VALUE&fields=NAME`));
    expect(response.status).toBe(200);
    const document = await response.json();
    expect(document.tilejson).toBe('3.0.0');
    expect(document.tiles).toEqual([server.url(`/REST/v1/shapefiles/tiles/squares/{z}/{x}/{y}.mvt?key=${TEST_KEY}&styleBy=VALUE&fields=NAME`)]);
    const [west, south, east, north] = document.bounds;
    // The box around the file's own (RD New) box: a little wider than the squares'.
    expect(west).toBeGreaterThan(4.2);
    expect(west).toBeLessThanOrEqual(4.3);
    expect(south).toBeGreaterThan(51.95);
    expect(south).toBeLessThanOrEqual(52.0);
    expect(east).toBeGreaterThanOrEqual(6.51);
    expect(east).toBeLessThan(6.6);
    expect(north).toBeGreaterThanOrEqual(53.21);
    expect(north).toBeLessThan(53.26);
    expect(document.vector_layers).toEqual([{ id: 'squares', fields: { NAME: 'String', shapeshot_class: 'Number' }, minzoom: 0, maxzoom: 22 }]);
    const png = await (await fetch(server.url(`/REST/v1/shapefiles/tiles/squares.json?key=${TEST_KEY}&tiles=png`))).json();
    expect(png.tiles[0]).toMatch(/\/squares\/\{z\}\/\{x\}\/\{y\}\.png\?key=/);
    expect(png.vector_layers).toBeUndefined();
  });

  it("a document's ETag names the URLs it gives: its origin and its own query", async () => {
    const etagOf = async (path: string, headers: Record<string, string> = {}) => (await fetch(server.url(path), { headers })).headers.get('etag');
    const inQuery = await etagOf(`/REST/v1/shapefiles/tiles/squares.json?key=${TEST_KEY}`);
    expect(await etagOf('/REST/v1/shapefiles/tiles/squares.json', { 'X-API-Key': TEST_KEY })).not.toBe(inQuery);
    expect(await etagOf(`/REST/v1/shapefiles/tiles/squares.json?key=${TEST_KEY}&cachebuster=1`)).not.toBe(inQuery);
    expect(await etagOf(`/REST/v1/shapefiles/tiles/squares.json?key=${TEST_KEY}`)).toBe(inQuery);
  });

  it('a key sent in a header stays out of the documents', async () => {
    const document = await (await fetch(server.url('/REST/v1/shapefiles/tiles/squares.json'), { headers: { 'X-API-Key': TEST_KEY } })).json();
    expect(JSON.stringify(document)).not.toContain(TEST_KEY);
    const style = await (await fetch(server.url('/REST/v1/shapefiles/tiles/squares/style.json'), { headers: { 'X-API-Key': TEST_KEY } })).json();
    expect(JSON.stringify(style)).not.toContain(TEST_KEY);
  });

  it("the style draws the vector tiles in the raster tiles' colours, class by class", async () => {
    const query = new URLSearchParams({ key: TEST_KEY, styleBy: 'VALUE', classify: 'equal', classes: '4', palette: 'Blues' });
    const style = await (await fetch(server.url(`/REST/v1/shapefiles/tiles/squares/style.json?${query}`))).json();
    expect(style.version).toBe(8);
    expect(style.layers.map((layer: { id: string }) => layer.id)).toEqual(['basemap', 'shapeshot-fill', 'shapeshot-line']);
    const legend = style.metadata['shapeshot:legend'];
    const fill = style.layers[1].paint['fill-color'];
    expect(fill.slice(0, 2)).toEqual(['match', ['get', 'shapeshot_class']]);
    expect(fill.slice(2, -1)).toEqual(legend.classes.flatMap((entry: { color: string }, index: number) => [index, entry.color.toLowerCase()]));
    expect(style.sources.shapeshot.url).toBe(server.url(`/REST/v1/shapefiles/tiles/squares.json?${query}`));
    // The basemap's tiles answer.
    const basemap = await fetch(style.sources.basemap.tiles[0].replace('{z}/{x}/{y}', `${PAIR_TILE.z}/${PAIR_TILE.x}/${PAIR_TILE.y}`));
    expect(basemap.status).toBe(200);
    expect(decodePng(await basemap.bytes()).width).toBe(256);
  });
});
