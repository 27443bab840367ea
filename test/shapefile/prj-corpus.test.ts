/**
 * Our reading of the .prj files GDAL writes, against GDAL's: for each CRS, GDAL wrote a
 * shapefile and read it back, and test/fixtures/prj/reference.json holds where GDAL puts its
 * points in WGS 84 (scripts/gdal-reference/prj.py). We read the same .prj and place the same
 * coordinates. Departures are named in the test titles.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crsFromPrj, toWgs84 } from '../../src/shapefile/crs.ts';

const FIXTURES = new URL('../fixtures/prj/', import.meta.url).pathname;

interface ReferenceCrs {
  crs: string;
  name: string;
  prj: string;
  points: { x: number; y: number; lon: number; lat: number }[];
}

const reference: ReferenceCrs[] = JSON.parse(readFileSync(join(FIXTURES, 'reference.json'), 'utf8'));

/** Where we depart from GDAL by more than a centimetre, and why. */
const DEPARTURES: Record<string, { metres: number; why: string }> = {
  'EPSG:31467': { metres: 1, why: "PROJ shifts DHDN by a grid; we use PROJ's Helmert fallback (EPSG:1777, 3 m)" },
  'EPSG:23031': { metres: 10, why: 'PROJ picks a regional ED50 transformation; we use the European one (EPSG:1133, 10 m)' },
  'EPSG:5514': { metres: 2, why: "proj4js's Krovak and S-JTSK shift land within 2 m of PROJ's" },
  'EPSG:2056': { metres: 0.1, why: "proj4js's Hotine oblique Mercator with CH1903+'s shift lands within 7 cm of PROJ's" },
  'EPSG:21781': { metres: 0.1, why: "proj4js's Hotine oblique Mercator with CH1903's shift lands within 7 cm of PROJ's" },
  'ESRI:54030': { metres: 0.5, why: "proj4js's Robinson table differs from PROJ's by decimetres" },
};

/** CRSs whose .prj proj4js cannot read: their files are served as of an unknown CRS, as without a .prj. */
const UNREAD = new Set(['EPSG:6933']);

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
  it('cover the CRSs the corpus script lists', () => {
    expect(reference.length).toBeGreaterThanOrEqual(35);
  });

  for (const entry of reference.filter(({ crs }) => !UNREAD.has(crs))) {
    const departure = DEPARTURES[entry.crs];
    const tolerance = departure?.metres ?? 0.01;
    const title = `${entry.crs} (${entry.name}): placed within ${tolerance} m of GDAL${departure ? `; departure: ${departure.why}` : ''}`;
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

  it('EPSG:6933 (EASE-Grid 2.0): departure: proj4js has no Behrmann projection, so the file is served as of an unknown CRS, saying why', () => {
    const entry = reference.find(({ crs }) => crs === 'EPSG:6933')!;
    const { crs, problem } = crsFromPrj(readFileSync(join(FIXTURES, entry.prj), 'utf8'), bboxOf(entry.points));
    expect(crs).toEqual({ geographic: false });
    expect(problem).toMatch(/^proj4 cannot read it/);
  });
});
