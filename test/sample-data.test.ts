import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Feature, Geometry, Position } from 'geojson';
import * as shapefile from 'shapefile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSampleData } from '../scripts/lib/sample-data.ts';

const DATA_DIR = fileURLToPath(new URL('../data/', import.meta.url));
const SAMPLES = ['countries', 'borders', 'country_centres', 'benelux_rd'];

type Properties = Record<string, string | number | boolean | null>;

async function readAll(name: string): Promise<Feature<Geometry, Properties>[]> {
  const source = await shapefile.open(join(DATA_DIR, `${name}.shp`), join(DATA_DIR, `${name}.dbf`), { encoding: 'utf-8' });
  const features: Feature<Geometry, Properties>[] = [];
  for (let result = await source.read(); !result.done; result = await source.read()) {
    features.push(result.value as Feature<Geometry, Properties>);
  }
  return features;
}

function byName(features: Feature<Geometry, Properties>[], name: string) {
  const found = features.find((feature) => feature.properties.NAME === name);
  expect(found, name).toBeDefined();
  return found!;
}

function polygonsOf(geometry: Geometry): Position[][][] {
  if (geometry.type === 'Polygon') return [geometry.coordinates];
  if (geometry.type === 'MultiPolygon') return geometry.coordinates;
  throw new Error(`expected a polygon, got ${geometry.type}`);
}

function ringContains(ring: Position[], [x, y]: Position): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function polygonContains(geometry: Geometry, point: Position): boolean {
  return polygonsOf(geometry).some(([outer, ...holes]) => ringContains(outer, point) && !holes.some((hole) => ringContains(hole, point)));
}

/** One feature of `ogrinfo -q -geom=NO`'s listing: its fields as ogrinfo prints them ("(null)" for null). */
function fieldsOf(block: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of block.matchAll(/^ {2}(\w+) \(\w+\) = (.*)$/gm)) fields[match[1]] = match[2];
  return fields;
}

describe('the bundled sample data', () => {
  it.each(SAMPLES)('%s has .shp, .shx, .dbf, a .prj and a UTF-8 .cpg', (name) => {
    for (const extension of ['shp', 'shx', 'dbf', 'prj']) {
      expect(existsSync(join(DATA_DIR, `${name}.${extension}`)), `${name}.${extension}`).toBe(true);
    }
    expect(readFileSync(join(DATA_DIR, `${name}.cpg`), 'utf8')).toBe('UTF-8');
  });

  it('stays small enough to commit', () => {
    const bytes = readdirSync(DATA_DIR).reduce((sum, file) => sum + readFileSync(join(DATA_DIR, file)).length, 0);
    expect(bytes).toBeLessThan(5_000_000);
  });

  describe('countries', () => {
    let countries: Feature<Geometry, Properties>[];
    beforeAll(async () => {
      countries = await readAll('countries');
    });

    it('holds every Natural Earth country as a WGS84 polygon', () => {
      expect(countries).toHaveLength(241);
      for (const country of countries) {
        expect(['Polygon', 'MultiPolygon']).toContain(country.geometry.type);
      }
      expect(readFileSync(join(DATA_DIR, 'countries.prj'), 'utf8')).toMatch(/^GEOGCS\["GCS_WGS_1984"/);
    });

    it('decodes names with non-ASCII letters in English and Dutch', () => {
      expect(byName(countries, "Côte d'Ivoire").properties.NAME_NL).toBe('Ivoorkust');
      expect(byName(countries, 'Curaçao').properties.ISO_N3).toBe('531');
      expect(byName(countries, 'Belgium').properties).toMatchObject({ NAME: 'Belgium', NAME_NL: 'België', ISO_N3: '056' });
      expect(byName(countries, 'Netherlands').properties.NAME_NL).toBe('Nederland');
      expect(byName(countries, 'Kosovo').properties).toMatchObject({ NAME: 'Kosovo', NAME_NL: 'Kosovo', ISO_N3: null });
    });

    it('carries a number, two categories and a logical to colour by, every country with a region', () => {
      const regions = new Set(countries.map((country) => country.properties.REGION));
      expect([...regions].sort()).toEqual(['Africa', 'Americas', 'Antarctic', 'Asia', 'Europe', 'Oceania']);
      expect(new Set(countries.map((country) => country.properties.SUBREGION)).size).toBeGreaterThan(15);
      const areas = countries.map((country) => country.properties.AREA_KM2).filter((area) => area !== null);
      expect(areas.length).toBeGreaterThan(230);
      expect(new Set(areas).size).toBeGreaterThan(200);
      for (const area of areas) expect(area).toBeGreaterThan(0);
      expect(countries.filter((country) => country.properties.LANDLOCKED === true).length).toBeGreaterThan(30);
    });

    it('writes rings so that holes read back as holes (outer rings clockwise)', () => {
      // Lesotho is a hole in South Africa; reversed rings would make it a second country.
      const southAfrica = byName(countries, 'South Africa').geometry;
      const maseru = [27.48, -29.31];
      const pretoria = [28.19, -25.75];
      expect(polygonContains(southAfrica, pretoria)).toBe(true);
      expect(polygonContains(southAfrica, maseru)).toBe(false);
      expect(polygonContains(byName(countries, 'Lesotho').geometry, maseru)).toBe(true);
    });

    it('reads, as GDAL reads them (ogrinfo), AREA_KM2 as a real, REGION and SUBREGION as text, LANDLOCKED as T or F', () => {
      const path = join(DATA_DIR, 'countries.shp');
      const summary = execFileSync('ogrinfo', ['-so', path, 'countries'], { encoding: 'utf8' });
      expect(summary).toMatch(/^AREA_KM2: Real \(\d+\.2\)$/m);
      expect(summary).toMatch(/^REGION: String \(\d+\.0\)$/m);
      expect(summary).toMatch(/^SUBREGION: String \(\d+\.0\)$/m);
      // A dBASE logical: GDAL 3.6 lists it as a one-character string.
      expect(summary).toMatch(/^LANDLOCKED: String \(1\.0\)$/m);

      const where = "NAME IN ('Netherlands', 'Mongolia', 'Vatican', 'Antarctica', 'Somaliland')";
      const listing = execFileSync('ogrinfo', ['-q', '-geom=NO', '-where', where, path, 'countries'], { encoding: 'utf8' });
      const features = listing.split('OGRFeature(countries):').slice(1).map(fieldsOf);
      expect(features).toEqual([
        expect.objectContaining({ NAME: 'Vatican', AREA_KM2: '0.44', REGION: 'Europe', SUBREGION: 'Southern Europe', LANDLOCKED: 'T' }),
        // No world-countries entry of its own: region by hand, no area.
        expect.objectContaining({ NAME: 'Somaliland', AREA_KM2: '(null)', REGION: 'Africa', SUBREGION: 'Eastern Africa', LANDLOCKED: 'F' }),
        expect.objectContaining({ NAME: 'Netherlands', AREA_KM2: '41850.00', REGION: 'Europe', SUBREGION: 'Western Europe', LANDLOCKED: 'F' }),
        expect.objectContaining({ NAME: 'Mongolia', AREA_KM2: '1564110.00', REGION: 'Asia', SUBREGION: 'Eastern Asia', LANDLOCKED: 'T' }),
        expect.objectContaining({ NAME: 'Antarctica', AREA_KM2: '14000000.00', REGION: 'Antarctic', SUBREGION: '(null)', LANDLOCKED: 'F' }),
      ]);
    });

    it('has many-part countries', () => {
      expect(polygonsOf(byName(countries, 'Indonesia').geometry).length).toBeGreaterThan(50);
    });
  });

  it('borders: one line feature per pair of neighbours, named in Dutch and English', async () => {
    const borders = await readAll('borders');
    expect(borders.length).toBeGreaterThan(250);
    const beNl = byName(borders, 'België – Nederland');
    expect(beNl.properties.NAME_EN).toBe('Belgium – Netherlands');
    expect(['LineString', 'MultiLineString']).toContain(beNl.geometry.type);
    expect(borders.some((border) => border.geometry.type === 'MultiLineString')).toBe(true);
    for (const border of borders) expect(['LineString', 'MultiLineString']).toContain(border.geometry.type);
  });

  it('country_centres: a point per country with English and Dutch names', async () => {
    const centres = await readAll('country_centres');
    expect(centres).toHaveLength(250);
    const netherlands = byName(centres, 'Netherlands');
    expect(netherlands.properties).toMatchObject({ NAME_NL: 'Nederland', CAPITAL: 'Amsterdam', ISO_A3: 'NLD' });
    expect(netherlands.geometry).toEqual({ type: 'Point', coordinates: [5.75, 52.5] });
    expect(byName(centres, 'Åland Islands').properties.NAME_NL).toBe('Ålandeilanden');
    expect(byName(centres, 'São Tomé and Príncipe').properties.ISO_A3).toBe('STP');
  });

  describe('benelux_rd', () => {
    let benelux: Feature<Geometry, Properties>[];
    beforeAll(async () => {
      benelux = await readAll('benelux_rd');
    });

    it('holds the three Benelux countries with Dutch and English names', () => {
      expect(benelux.map((country) => country.properties)).toEqual([
        { NAME: 'Nederland', NAME_EN: 'Netherlands' },
        { NAME: 'België', NAME_EN: 'Belgium' },
        { NAME: 'Luxemburg', NAME_EN: 'Luxembourg' },
      ]);
    });

    it('is in RD New metres, the European Netherlands only', () => {
      const points = polygonsOf(byName(benelux, 'Nederland').geometry).flat(2);
      for (const [x, y] of points) {
        expect(x).toBeGreaterThan(0);
        expect(x).toBeLessThan(300_000);
        expect(y).toBeGreaterThan(300_000);
        expect(y).toBeLessThan(650_000);
      }
      expect(readFileSync(join(DATA_DIR, 'benelux_rd.prj'), 'utf8')).toMatch(/^PROJCS\["RD_New".*"Double_Stereographic"/);
    });

    it('puts places where RD New has them', () => {
      const amersfoort = [155_000, 463_000]; // the origin of RD New
      // Roughly: RD New runs about 111 km per degree north and 72 km per degree east here.
      const brussels = [82_100, 317_900];
      const luxembourg = [208_700, 180_300];
      expect(polygonContains(byName(benelux, 'Nederland').geometry, amersfoort)).toBe(true);
      expect(polygonContains(byName(benelux, 'België').geometry, brussels)).toBe(true);
      expect(polygonContains(byName(benelux, 'Nederland').geometry, brussels)).toBe(false);
      expect(polygonContains(byName(benelux, 'Luxemburg').geometry, luxembourg)).toBe(true);
    });
  });

  describe('the build', () => {
    let rebuilt: string;
    beforeAll(() => {
      rebuilt = mkdtempSync(join(tmpdir(), 'sample-data-'));
      buildSampleData(rebuilt);
    });
    afterAll(() => rmSync(rebuilt, { recursive: true, force: true }));

    it('gives the committed bytes again (deterministic, and data/ is up to date)', () => {
      const committed = readdirSync(DATA_DIR).sort();
      expect(readdirSync(rebuilt).sort()).toEqual(committed);
      for (const file of committed) {
        expect(readFileSync(join(rebuilt, file)).equals(readFileSync(join(DATA_DIR, file))), file).toBe(true);
      }
    });
  });
});
