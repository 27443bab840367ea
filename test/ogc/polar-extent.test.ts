/**
 * A collection's extent in WGS 84 for data around a pole: the box's edges alone never reach
 * the pole, nor go all the way round. The .prj is the one GDAL writes for EPSG:3413 (the
 * NSIDC's Arctic grid); the corner latitude is GDAL's (gdaltransform: 76.9988°). And for
 * data in a projection that cannot place the poles at all (Mercator).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { boxToLonLat } from '../../src/ogc-jobs/lon-lat-box.ts';
import { crsFromPrj } from '../../src/shapefile/crs.ts';
import { startServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { get } from './support.ts';

const prj = readFileSync(new URL('../fixtures/prj/EPSG_3413.prj', import.meta.url), 'utf8');
const AROUND_THE_POLE = { xmin: -1_000_000, ymin: -1_000_000, xmax: 1_000_000, ymax: 1_000_000 };
const { crs } = crsFromPrj(prj, AROUND_THE_POLE);

describe('the WGS 84 extent of polar data', () => {
  it('reaches the pole and goes all the way round when the box holds the pole', () => {
    const extent = boxToLonLat(AROUND_THE_POLE, crs)!;
    expect([extent.xmin, extent.xmax, extent.ymax]).toEqual([-180, 180, 90]);
    expect(extent.ymin).toBeCloseTo(76.9988, 4);
  });

  it('is the box of its edges for a projection that cannot place the pole (Web Mercator: proj4js gives null there)', () => {
    const mercator = crsFromPrj(readFileSync(new URL('../fixtures/prj/EPSG_3857.prj', import.meta.url), 'utf8'), AROUND_THE_POLE).crs;
    const extent = boxToLonLat({ xmin: 0, ymin: 6_000_000, xmax: 1_000_000, ymax: 7_000_000 }, mercator)!;
    expect(extent.xmin).toBe(0);
    expect(extent.xmax).toBeCloseTo(8.98315, 4);
    expect(extent.ymin).toBeCloseTo(47.35370, 4); // gdaltransform -s_srs EPSG:3857 -t_srs EPSG:4326
    expect(extent.ymax).toBeCloseTo(53.09182, 4);
  });

  it('stays with its edges when the box does not hold the pole', () => {
    const aside = { xmin: 500_000, ymin: -1_000_000, xmax: 1_000_000, ymax: -500_000 };
    const extent = boxToLonLat(aside, crs)!;
    expect(extent.ymax).toBeLessThan(86);
    expect(extent.xmax - extent.xmin).toBeLessThan(90);
  });
});

/** Fails with an install hint where GDAL's command-line tools are missing. */
function ogr2ogr(...args: string[]): void {
  try {
    execFileSync('ogr2ogr', args, { stdio: 'pipe' });
  } catch (error) {
    throw new Error(`ogr2ogr failed (${(error as Error).message}); this test needs GDAL's command-line tools: apt-get install gdal-bin`);
  }
}

describe('a collection in a Mercator projection, as ogr2ogr writes it', () => {
  it.each([
    { crs: 'EPSG:3857', lon: 5.12, lat: 52.09 },
    // Near the origin of World Mercator, whose inverse iterates: the round trip is off by micrometres there.
    { crs: 'EPSG:3395', lon: 0.0000122, lat: -0.00000085 },
  ])('in $crs is listed with its extent, and its one point found by a bbox that holds the file (its box round-tripped through lon/lat held it no more)', async ({ crs, lon, lat }) => {
    const dir = makeTempDir('shapeshot-mercator-');
    const source = join(dir, 'source.geojson');
    writeFileSync(source, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { NAME: 'here' }, geometry: { type: 'Point', coordinates: [lon, lat] } }] }));
    ogr2ogr('-f', 'ESRI Shapefile', join(dir, 'mercator.shp'), source, '-s_srs', 'EPSG:4326', '-t_srs', crs);
    const server = await startServer({ dataDir: dir });
    try {
      const collection = await get(server, '/ogc/collections/mercator');
      expect(collection.status).toBe(200);
      const [[minLon, minLat]] = collection.body.extent.spatial.bbox;
      expect(minLon).toBeCloseTo(lon, 7);
      expect(minLat).toBeCloseTo(lat, 7);
      for (const bbox of ['-180,-90,180,90', `${lon - 0.001},${lat - 0.001},${lon + 1},${lat + 1}`]) {
        const items = await get(server, `/ogc/collections/mercator/items?bbox=${bbox}`);
        expect(items.status).toBe(200);
        expect(items.body.numberMatched, bbox).toBe(1);
      }
    } finally {
      await server.close();
      removeTempDirs();
    }
  });
});
