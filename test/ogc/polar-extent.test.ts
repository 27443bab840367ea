/**
 * A collection's extent in WGS 84 for data around a pole: the box's edges alone never reach
 * the pole, nor go all the way round. The .prj is the one GDAL writes for EPSG:3413 (the
 * NSIDC's Arctic grid); the corner latitude is GDAL's (gdaltransform: 76.9988°).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { boxToLonLat } from '../../src/drawing/lon-lat-box.ts';
import { crsFromPrj } from '../../src/shapefile/crs.ts';

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
