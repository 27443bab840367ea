import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createCatalog, type CatalogLogger, type TestCatalog } from '../support/catalog.ts';
import { crsFromPrj, RD_NEW_PROJ4, toWgs84 } from '../../src/shapefile/crs.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { writeShapefile } from './helpers.ts';

afterAll(removeTempDirs);
const catalogs: TestCatalog[] = [];
afterEach(async () => {
  await Promise.all(catalogs.splice(0).map((catalog) => catalog.close()));
});

const ESRI_RD_NEW =
  'PROJCS["RD_New",GEOGCS["GCS_Amersfoort",DATUM["D_Amersfoort",SPHEROID["Bessel_1841",6377397.155,299.1528128]],' +
  'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Double_Stereographic"],' +
  'PARAMETER["False_Easting",155000.0],PARAMETER["False_Northing",463000.0],PARAMETER["Central_Meridian",5.38763888888889],' +
  'PARAMETER["Scale_Factor",0.9999079],PARAMETER["Latitude_Of_Origin",52.15616055555555],UNIT["Meter",1.0]]';
const ESRI_WGS84 =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';
const ESRI_UTM31 =
  'PROJCS["WGS_1984_UTM_Zone_31N",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],' +
  'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],' +
  'PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",3.0],PARAMETER["Scale_Factor",0.9996],' +
  'PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]';

const RD_BBOX = { xmin: 100_000, ymin: 400_000, xmax: 200_000, ymax: 500_000 };
const LON_LAT_BBOX = { xmin: -70, ymin: 12, xmax: 7, ymax: 53 };

/** Distance in metres between two lon/lat points (equirectangular; fine at metre scale). */
function metresBetween([lon1, lat1]: [number, number], [lon2, lat2]: [number, number]): number {
  const radians = Math.PI / 180;
  const dx = (lon2 - lon1) * radians * Math.cos(((lat1 + lat2) / 2) * radians);
  const dy = (lat2 - lat1) * radians;
  return Math.hypot(dx, dy) * 6_371_000;
}

describe('RD New', () => {
  it('is recognised in an ESRI .prj and given the datum shift it leaves out', () => {
    const { crs, problem } = crsFromPrj(ESRI_RD_NEW, RD_BBOX);
    expect(problem).toBeUndefined();
    expect(crs).toEqual({ geographic: false, proj4: RD_NEW_PROJ4, name: 'RD_New' });
  });

  it('is recognised by its parameters under another name', () => {
    const renamed = ESRI_RD_NEW.replace('RD_New', 'Dutch_grid').replace('Double_Stereographic', 'Oblique_Stereographic');
    expect(crsFromPrj(renamed, RD_BBOX).crs.proj4).toBe(RD_NEW_PROJ4);
  });

  it.each([
    ['the origin in Amersfoort', [155_000, 463_000], [5.38721, 52.15517]],
    ['the Koningsweg viaduct in Arnhem', [192_277, 450_138], [5.930493, 52.0383178]],
    ['the RD marker on the Westerpad, Ameland', [179_641, 607_984], [5.7581475, 53.4575106]],
  ] as const)('puts %s within 2 m of its true place', (_place, [x, y], lonLat) => {
    const transform = toWgs84(crsFromPrj(ESRI_RD_NEW, RD_BBOX).crs)!;
    expect(metresBetween(transform(x, y), [lonLat[0], lonLat[1]])).toBeLessThan(2);
  });

  it('would be about 100 m off without the datum shift (which is why it is added)', () => {
    const transform = toWgs84({ geographic: false, proj4: ESRI_RD_NEW })!;
    expect(metresBetween(transform(155_000, 463_000), [5.38721, 52.15517])).toBeGreaterThan(50);
  });
});

describe('other .prj files', () => {
  it('reads a geographic .prj as lon/lat', () => {
    const { crs } = crsFromPrj(ESRI_WGS84, LON_LAT_BBOX);
    expect(crs).toMatchObject({ geographic: true, name: 'GCS_WGS_1984' });
    expect(toWgs84(crs)!(4.9, 52.37)).toEqual([4.9, 52.37]);
  });

  it('reads a projected .prj with proj4', () => {
    const { crs } = crsFromPrj(ESRI_UTM31, { xmin: 400_000, ymin: 5_700_000, xmax: 600_000, ymax: 5_800_000 });
    expect(crs).toMatchObject({ geographic: false, name: 'WGS_1984_UTM_Zone_31N' });
    const [lon, lat] = toWgs84(crs)!(500_000, 5_760_000);
    expect(lon).toBeCloseTo(3, 6);
    expect(lat).toBeCloseTo(51.99067, 4);
  });

  it('counts a .prj that cannot be parsed as none, and says why', () => {
    const garbage = crsFromPrj('this is no WKT', LON_LAT_BBOX);
    expect(garbage.crs).toEqual({ geographic: true });
    expect(garbage.problem).toMatch(/not WKT/);
    const cut = crsFromPrj('PROJCS["x",GEOGCS[', RD_BBOX);
    expect(cut.crs).toEqual({ geographic: false });
    expect(cut.problem).toMatch(/proj4 cannot read it/);
  });
});

describe('no .prj', () => {
  it('is lon/lat when the bounding box fits the globe (give or take 1e-6), else unknown', () => {
    expect(crsFromPrj(undefined, { xmin: -180.0000005, ymin: -90, xmax: 180, ymax: 90 }).crs).toEqual({ geographic: true });
    expect(crsFromPrj(undefined, { xmin: -181, ymin: 0, xmax: 0, ymax: 1 }).crs).toEqual({ geographic: false });
    expect(crsFromPrj('  ', RD_BBOX).crs).toEqual({ geographic: false });
    expect(toWgs84({ geographic: false })).toBeUndefined();
  });
});

describe('a shapefile’s CRS in the catalog', () => {
  it('comes from its .prj, and an unusable .prj is logged and read as absent', async () => {
    const dir = makeTempDir();
    writeShapefile(dir, 'rd', ShapeType.Point, [{ type: 'Point', coordinates: [155_000, 463_000] }], { prj: ESRI_RD_NEW });
    writeShapefile(dir, 'broken', ShapeType.Point, [{ type: 'Point', coordinates: [4.9, 52.37] }], { prj: 'GEOGCS[' });
    writeShapefile(dir, 'bare', ShapeType.Point, [{ type: 'Point', coordinates: [155_000, 463_000] }]);
    const warnings: object[] = [];
    const logger: CatalogLogger = { warn: (details) => warnings.push(details) };
    const catalog = createCatalog({ dataDir: dir, cacheBytes: 0, logger });
    catalogs.push(catalog);
    expect((await catalog.open('rd'))!.crs.proj4).toBe(RD_NEW_PROJ4);
    expect((await catalog.open('broken'))!.crs).toEqual({ geographic: true });
    expect(warnings).toEqual([{ problem: expect.stringContaining('broken.prj is unusable') }]);
    expect((await catalog.open('bare'))!.crs).toEqual({ geographic: false });
  });
});
