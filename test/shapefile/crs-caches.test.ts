/**
 * crs.ts keeps each CRS's proj4 transforms with the CRS itself (a WeakMap keyed by the CRS
 * object), not in a table keyed by the `.prj` text: a transform lives as long as the open
 * shapefile version that holds its CRS, which the open-shapefile pool bounds, and never
 * after. Thousands of distinct `.prj` texts, once their files are gone, leave nothing.
 */
import { describe, expect, it } from 'vitest';
import { crsFromPrj, fromWgs84, toWgs84 } from '../../src/shapefile/crs.ts';
import type { Crs } from '../../src/shapefile/types.ts';
import { liveBytes } from '../support/heap.ts';

const BBOX = { xmin: 0, ymin: 0, xmax: 1000, ymax: 1000 };

/** A transverse Mercator WKT, distinct by its central meridian. */
const wkt = (n: number) =>
  `PROJCS["TM ${n}",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],` +
  `UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",0.0],` +
  `PARAMETER["Central_Meridian",${(n % 3600) / 10 - 180}],PARAMETER["Scale_Factor",0.9996],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]`;

describe("the CRS transforms' caches", () => {
  it('keep nothing of a CRS no shapefile holds any more', () => {
    const use = (n: number) => {
      const { crs } = crsFromPrj(wkt(n), BBOX);
      expect(crs.proj4).toBeDefined();
      toWgs84(crs)!(500_000, 0);
      fromWgs84(crs)!(0, 0);
    };
    use(-1);
    const before = liveBytes();
    for (let n = 0; n < 2000; n++) use(n);
    expect(liveBytes() - before).toBeLessThan(1024 * 1024);
  });

  it('answer the same transform for the same CRS while it is held', () => {
    const crs: Crs = crsFromPrj(wkt(7), BBOX).crs;
    expect(toWgs84(crs)).toBe(toWgs84(crs));
    expect(fromWgs84(crs)).toBe(fromWgs84(crs));
  });
});
