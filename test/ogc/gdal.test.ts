/**
 * GDAL's OAPIF driver copies every sample shapefile through /ogc, and the copy equals GDAL's
 * own reading of the shapefile reprojected to WGS 84: same features in the same order, the
 * same attributes, the same geometry types, every vertex within 1e-6 degrees.
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
  server = await startServer();
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
  const path = join(dir, output);
  await run('ogr2ogr', ['-f', 'GeoJSON', path, ...source], { env: gdalEnv });
  return (JSON.parse(readFileSync(path, 'utf8')) as { features: GeoJsonFeature[] }).features;
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
    expect(copied.map((feature) => feature.properties)).toEqual(reference.map((feature) => feature.properties));
    const largest = Math.max(...copied.map((feature, i) => largestDifference(feature.geometry, reference[i].geometry)));
    // benelux_rd (RD New): GDAL picks "Amersfoort to WGS 84 (4)" (EPSG:4833, PROJ's helmert), the shift our proj4
    // definition carries, so it agrees to about 2e-9°; the others differ only by our 9 decimals.
    expect(largest).toBeLessThanOrEqual(TOLERANCE_DEGREES);
  });
});
