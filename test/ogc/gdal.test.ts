/**
 * GDAL's OAPIF driver copies every sample shapefile through /ogc, and the copy equals GDAL's
 * own reading of the shapefile reprojected to WGS 84: same features in the same order, the
 * same attributes, the same geometry types, every vertex within 1e-6 degrees. With -where,
 * GDAL 3.6 sends the filter to us (it finds what it looks for first: `cql-text` in the API
 * definition, the queryables under the drafts' rel) and gets what it gets filtering itself.
 * Without a key, what it prints tells its user how to send one.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Position } from 'geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_DATA_DIR } from '../../src/config/package-folders.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

const run = promisify(execFile);
const TOLERANCE_DEGREES = 1e-6;
const SAMPLES = readdirSync(SAMPLE_DATA_DIR)
  .filter((file) => file.endsWith('.shp'))
  .map((file) => file.slice(0, -'.shp'.length))
  .sort();

interface GeoJsonFeature {
  properties: Record<string, unknown>;
  geometry: { type: string; coordinates: unknown } | null;
}

let server: TestServer;
let dir: string;
let gdalEnv: NodeJS.ProcessEnv;
beforeAll(async () => {
  try {
    await run('ogr2ogr', ['--version']);
  } catch (error) {
    throw new Error(`ogr2ogr cannot be run (${(error as Error).message}): the GDAL tests need GDAL's command-line tools; install gdal-bin (apt-get install gdal-bin).`);
  }
  server = await startServer({ logLevel: 'info' });
  dir = makeTempDir('shapeshot-gdal-');
  // The OAPIF driver sends these headers with every request; the links it follows carry no key.
  writeFileSync(join(dir, 'headers.txt'), `X-API-Key: ${TEST_KEY}\n`);
  gdalEnv = { ...process.env, GDAL_HTTP_HEADER_FILE: join(dir, 'headers.txt'), CPL_DEBUG: 'OFF' };
});
afterAll(async () => {
  await server?.close();
  removeTempDirs();
});

async function ogr2ogr(output: string, ...source: string[]): Promise<GeoJsonFeature[]> {
  return (await ogr2ogrLogged(output, ...source)).features;
}

/** ogr2ogr's copy, and what GDAL logged with CPL_DEBUG on (every URL it fetched among it). */
async function ogr2ogrLogged(output: string, ...source: string[]): Promise<{ features: GeoJsonFeature[]; debug: string }> {
  const path = join(dir, output);
  const { stderr } = await run('ogr2ogr', ['--debug', 'on', '-f', 'GeoJSON', path, ...source], { env: gdalEnv });
  return { features: (JSON.parse(readFileSync(path, 'utf8')) as { features: GeoJsonFeature[] }).features, debug: stderr };
}

function positions(coordinates: unknown): Position[] {
  if (!Array.isArray(coordinates)) return [];
  return typeof coordinates[0] === 'number' ? [coordinates as Position] : coordinates.flatMap(positions);
}

/** The largest difference of a coordinate of `ours` from `gdals`; the geometries must have the same shape. */
function largestDifference(ours: GeoJsonFeature['geometry'], gdals: GeoJsonFeature['geometry']): number {
  expect(ours?.type).toBe(gdals?.type);
  const [a, b] = [positions(ours?.coordinates), positions(gdals?.coordinates)];
  expect(a.length).toBe(b.length);
  return a.reduce((largest, [x, y], i) => Math.max(largest, Math.abs(x - b[i][0]), Math.abs(y - b[i][1])), 0);
}

const LOGICAL_FIELDS = ['LANDLOCKED'];

/**
 * GDAL 3.6's shapefile driver reads a dBASE logical (countries' LANDLOCKED) as the text 'T'
 * or 'F', where /ogc answers a JSON boolean, which its OAPIF driver keeps: compare the
 * shapefile's reading with those read as booleans.
 */
function logicalsAsBooleans(properties: Record<string, unknown>): Record<string, unknown> {
  const read: Record<string, unknown> = { ...properties };
  for (const field of LOGICAL_FIELDS) {
    if (read[field] === 'T' || read[field] === 'F') read[field] = read[field] === 'T';
  }
  return read;
}
function propertiesOf(features: GeoJsonFeature[]): Record<string, unknown>[] {
  return features.map((feature) => feature.properties);
}

function shapefilePropertiesOf(features: GeoJsonFeature[]): Record<string, unknown>[] {
  return features.map((feature) => logicalsAsBooleans(feature.properties));
}

describe('GDAL reading /ogc', () => {
  it('finds the sample data', () => {
    expect(SAMPLES).toEqual(['benelux_rd', 'borders', 'countries', 'country_centres']);
  });

  it.each(SAMPLES)('copies %s as GDAL reads the shapefile', async (name) => {
    const [copied, reference] = await Promise.all([
      ogr2ogr(`${name}-oapif.geojson`, `OAPIF:${server.url('/ogc')}`, name),
      ogr2ogr(`${name}-shapefile.geojson`, '-t_srs', 'EPSG:4326', join(SAMPLE_DATA_DIR, `${name}.shp`)),
    ]);
    expect(copied.length).toBe(reference.length);
    expect(propertiesOf(copied)).toEqual(shapefilePropertiesOf(reference));
    const largest = Math.max(...copied.map((feature, i) => largestDifference(feature.geometry, reference[i].geometry)));
    // benelux_rd (RD New): GDAL picks "Amersfoort to WGS 84 (4)" (EPSG:4833, PROJ's helmert), the shift our proj4
    // definition carries, so it agrees to about 2e-9°; the others differ only by our 9 decimals.
    expect(largest).toBeLessThanOrEqual(TOLERANCE_DEGREES);
  });
});

describe('GDAL filtering through /ogc', () => {
  // Every form GDAL 3.6 writes for -where (BuildFilterCQLText): ( ) AND ( ), OR, NOT ( ), (x IS NULL),
  // = <> < <= > >= LIKE, BETWEEN as >= AND <=, and a quote doubled inside text.
  const WHERE =
    "NAME = 'Belgium' OR (ISO_N3 BETWEEN '001' AND '100' AND NOT NAME LIKE 'B%') OR NAME = 'Côte d''Ivoire' OR NAME IS NULL OR (ISO_N3 > '900' AND NAME <> 'Yemen')";

  it('sends -where as a filter on every page, and gets the features GDAL selects from the shapefile', async () => {
    const filtered = server.nextAnswer('filter=');
    const [{ features: copied, debug }, reference, everything] = await Promise.all([
      ogr2ogrLogged('where-oapif.geojson', `OAPIF:${server.url('/ogc')}`, 'countries', '-where', WHERE),
      ogr2ogr('where-shapefile.geojson', '-t_srs', 'EPSG:4326', '-where', WHERE, join(SAMPLE_DATA_DIR, 'countries.shp')),
      ogr2ogr('all-shapefile.geojson', join(SAMPLE_DATA_DIR, 'countries.shp')),
    ]);
    // The server received a filter and answered it.
    expect(await filtered).toBe(200);
    expect(debug).toContain('CQL text detected');
    expect(debug).not.toMatch(/evaluated on client side/);
    // GDAL reads one page without a filter to learn the fields; every page after that carries it.
    const itemPages = [...debug.matchAll(/Fetch\((\S*\/items\S*)\)/g)].map((match) => new URL(match[1]));
    const filteredPages = itemPages.slice(1);
    expect(filteredPages.length).toBeGreaterThan(0);
    for (const page of filteredPages) {
      expect(page.searchParams.get('filter-lang')).toBe('cql-text');
      expect(page.searchParams.get('filter')).toContain("NAME = 'Belgium'");
    }
    // And our request log says so, by the parameters' names.
    const itemRequests = server.log
      .map((line) => JSON.parse(line) as { msg: string; route?: string; parameters?: string[] })
      .filter((line) => line.msg === 'request' && line.route === '/ogc/collections/:collectionId/items');
    expect(itemRequests.filter((line) => line.parameters?.includes('filter')).length).toBeGreaterThanOrEqual(filteredPages.length);
    expect(reference.length).toBeGreaterThan(3);
    expect(reference.length).toBeLessThan(everything.length);
    expect(propertiesOf(copied)).toEqual(shapefilePropertiesOf(reference));
  });

  it('sends ILIKE, which is not CQL2, and gets what GDAL selects case-insensitively from the shapefile', async () => {
    const where = "NAME ILIKE 'bel%' OR NAME ILIKE '%LAND'";
    const filtered = server.nextAnswer('ILIKE');
    const [{ features: copied, debug }, reference] = await Promise.all([
      ogr2ogrLogged('ilike-oapif.geojson', `OAPIF:${server.url('/ogc')}`, 'countries', '-where', where),
      ogr2ogr('ilike-shapefile.geojson', '-t_srs', 'EPSG:4326', '-where', where, join(SAMPLE_DATA_DIR, 'countries.shp')),
    ]);
    expect(await filtered).toBe(200);
    expect(debug).not.toMatch(/evaluated on client side/);
    expect(reference.map((feature) => feature.properties.NAME)).toEqual(expect.arrayContaining(['Belgium', 'Belarus', 'Finland']));
    expect(propertiesOf(copied)).toEqual(shapefilePropertiesOf(reference));
  });
});

describe('GDAL without a key', () => {
  it('prints our 401, which says how to send one; and the way it names works with GDAL 3.6', async () => {
    const withoutKey = { ...process.env, CPL_DEBUG: 'OFF' };
    const failed = await run('ogrinfo', ['-ro', '-so', `OAPIF:${server.url('/ogc')}`], { env: withoutKey }).then(
      () => undefined,
      (error: { stderr: string }) => error.stderr,
    );
    expect(failed).toContain('HTTP error code : 401');
    expect(failed).toContain("--config GDAL_HTTP_HEADERS 'X-API-Key: <your key>'");
    const { stdout } = await run('ogrinfo', ['-ro', '-so', '--config', 'GDAL_HTTP_HEADERS', `X-API-Key: ${TEST_KEY}`, `OAPIF:${server.url('/ogc')}`, 'countries'], {
      env: withoutKey,
    });
    expect(stdout).toMatch(/Feature Count: \d+/);
  });
});
