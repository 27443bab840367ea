/**
 * Our reading of the .prj files GDAL writes, against GDAL's: for each CRS, GDAL wrote a
 * shapefile (its .prj in ESRI's WKT, and a copy in OGC's WKT 1) and read it back, and
 * test/fixtures/prj/reference.json holds where GDAL puts its points in WGS 84
 * (scripts/gdal-reference/prj.py, with the GDAL and PROJ versions and grids it ran with). We
 * read the same .prj and place the same coordinates. Departures are named in the test titles.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crsFromPrj, toWgs84 } from '../../src/shapefile/crs.ts';

const FIXTURES = new URL('../fixtures/prj/', import.meta.url).pathname;

interface ReferenceCrs {
  crs: string;
  dialect: 'esri' | 'ogc';
  name: string;
  prj: string;
  points: { x: number; y: number; lon: number; lat: number }[];
}

const reference: ReferenceCrs[] = JSON.parse(readFileSync(join(FIXTURES, 'reference.json'), 'utf8')).crss;

/** Where we depart from GDAL by more than a centimetre, and why. */
const DEPARTURES: Record<string, { metres: number; why: string }> = {
  'EPSG:31467': { metres: 1, why: "PROJ shifts DHDN by a grid; we use PROJ's Helmert fallback (EPSG:1777, 3 m)" },
  'EPSG:23031': { metres: 10, why: 'PROJ picks a regional ED50 transformation; we use the European one (EPSG:1133, 10 m)' },
  'EPSG:5514': { metres: 2, why: "in Slovakia PROJ uses the Slovak S-JTSK transformation; we use Czechia's (EPSG:5239)" },
  'EPSG:2056': { metres: 0.1, why: "proj4js's Hotine oblique Mercator with CH1903+'s shift lands within 7 cm of PROJ's" },
  'EPSG:21781': { metres: 0.1, why: "proj4js's Hotine oblique Mercator with CH1903's shift lands within 7 cm of PROJ's" },
  'ESRI:54030': { metres: 0.5, why: "proj4js's Robinson table differs from PROJ's by decimetres" },
  'EPSG:28403': { metres: 150, why: "Pulkovo 1942(58)'s shift differs by country (Poland, Romania) and we apply none" },
};

/** CRSs whose .prj we do not read, and why: their files are served as of an unknown CRS, as without a .prj. */
const UNREAD: Record<string, { problem: RegExp; why: string }> = {
  'EPSG:6933': { problem: /^proj4 cannot read it/, why: 'proj4js has no Behrmann projection' },
  'EPSG:4807': { problem: /^its angles are in grad/i, why: 'proj4js takes the coordinates of a lon/lat CRS in grads for degrees' },
};

/** Metres between two points on the sphere (haversine). */
function metresBetween(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const radians = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * radians) / 2) ** 2 + Math.cos(lat1 * radians) * Math.cos(lat2 * radians) * Math.sin(((lon2 - lon1) * radians) / 2) ** 2;
  return 2 * 6_371_008 * Math.asin(Math.sqrt(Math.min(1, a)));
}

const bboxOf = (points: ReferenceCrs['points']) => ({
  xmin: Math.min(...points.map((p) => p.x)),
  ymin: Math.min(...points.map((p) => p.y)),
  xmax: Math.max(...points.map((p) => p.x)),
  ymax: Math.max(...points.map((p) => p.y)),
});

describe('the .prj files GDAL writes', () => {
  it('cover the CRSs the corpus script lists, in both dialects', () => {
    expect(reference.filter(({ dialect }) => dialect === 'esri').length).toBeGreaterThanOrEqual(47);
    expect(reference.filter(({ dialect }) => dialect === 'ogc').length).toBe(reference.length / 2);
  });

  for (const entry of reference.filter(({ crs }) => !UNREAD[crs])) {
    const departure = DEPARTURES[entry.crs];
    const tolerance = departure?.metres ?? 0.01;
    const title = `${entry.crs} (${entry.name}, ${entry.dialect} WKT): placed within ${tolerance} m of GDAL${departure ? `; departure: ${departure.why}` : ''}`;
    it(title, () => {
      const prj = readFileSync(join(FIXTURES, entry.prj), 'utf8');
      const { crs, problem } = crsFromPrj(prj, bboxOf(entry.points));
      expect(problem).toBeUndefined();
      const transform = toWgs84(crs)!;
      for (const point of entry.points) {
        const [lon, lat] = transform(point.x, point.y);
        expect(metresBetween(lon, lat, point.lon, point.lat), `${point.x}, ${point.y}`).toBeLessThan(tolerance);
      }
    });
  }

  for (const entry of reference.filter(({ crs }) => UNREAD[crs])) {
    const { problem, why } = UNREAD[entry.crs];
    it(`${entry.crs} (${entry.name}, ${entry.dialect} WKT): departure: ${why}, so the file is served as of an unknown CRS, saying why`, () => {
      const reading = crsFromPrj(readFileSync(join(FIXTURES, entry.prj), 'utf8'), bboxOf(entry.points));
      expect(reading.crs).toEqual({ geographic: false });
      expect(reading.problem).toMatch(problem);
    });
  }
});
