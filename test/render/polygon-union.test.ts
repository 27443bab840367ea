/**
 * A record's polygons are filled as their union (docs/decisions.md, "Drawing an image"): a record
 * whose two outer rings overlap (both clockwise, as GDAL's ogr2ogr writes a MultiPolygon) is
 * two polygons for GDAL, and its rasterization fills both, overlap included. Even-odd over the
 * whole record showed the overlap as a hole; a translucent fill must not darken it twice
 * either; and a hole still cuts its own polygon. The file is written by ogr2ogr, not by us.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { square } from '../support/fixtures.ts';
import { decodePng } from '../support/png.ts';
import { imagesUrl, startServer, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

let server: TestServer;
beforeAll(async () => {
  const dir = makeTempDir('union-');
  // Outer rings counter-clockwise and holes clockwise, as GeoJSON winds them (fixtures' square is clockwise).
  const features = [
    // Two squares of side 2 overlapping in [1,2]×[1,2].
    { type: 'MultiPolygon', coordinates: [[square(0, 0, 2).reverse()], [square(1, 1, 2).reverse()]] },
    // A square of side 3 with a hole of side 1 in its middle.
    { type: 'Polygon', coordinates: [square(10, 0, 3).reverse(), square(11, 1, 1)] },
  ].map((geometry) => ({ type: 'Feature', properties: {}, geometry }));
  writeFileSync(join(dir, 'input.geojson'), JSON.stringify({ type: 'FeatureCollection', features }));
  execFileSync('ogr2ogr', ['-f', 'ESRI Shapefile', join(dir, 'union.shp'), join(dir, 'input.geojson')]);
  // The premise, as GDAL reads the file back: two polygons in the first record, not a polygon and a hole.
  const read = execFileSync('ogrinfo', ['-al', '-q', join(dir, 'union.shp')], { encoding: 'utf8' });
  expect(read).toContain('MULTIPOLYGON (((');
  expect(read).toMatch(/\)\),\(\(/);
  server = await startServer({ dataDir: dir, render: { workers: 1 } });
});
afterAll(async () => {
  await server?.close();
  removeTempDirs();
});

/** The image of feature `fid`, 90×90 with no buffer: 30 pixels a unit, the extent from (0,0) at the bottom-left. */
async function picture(fid: number, fillColor: string) {
  const response = await fetch(imagesUrl(server, { file: 'union', fid, size: '90,90', buffer: 0, lineWidth: 0, fillColor, format: 'png' }));
  expect(response.status, await response.clone().text()).toBe(200);
  return decodePng(new Uint8Array(await response.arrayBuffer()));
}

describe("a record's polygons", () => {
  it('fill where two outer rings overlap, as each ring alone', async () => {
    const image = await picture(0, 'FF0000');
    const onlyFirst = image.pixel(15, 75);
    expect(onlyFirst).toEqual([255, 0, 0, 255]);
    expect(image.pixel(75, 15), 'only in the second').toEqual(onlyFirst);
    expect(image.pixel(45, 45), 'in both').toEqual(onlyFirst);
    expect(image.pixel(75, 75)[3], 'in neither').toBe(0);
  });

  it('under a translucent fill, are their union: the overlap is no darker than the rest', async () => {
    const image = await picture(0, '80FF0000');
    const onlyFirst = image.pixel(15, 75);
    expect(onlyFirst[3]).toBeGreaterThan(100);
    expect(onlyFirst[3]).toBeLessThan(160);
    expect(image.pixel(45, 45)).toEqual(onlyFirst);
  });

  it('keep a hole open in its own polygon', async () => {
    const image = await picture(1, 'FF0000');
    expect(image.pixel(15, 45), 'the ring').toEqual([255, 0, 0, 255]);
    expect(image.pixel(45, 45)[3], 'the hole').toBe(0);
  });
});
