import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Feature, FeatureCollection, Geometry, Position } from 'geojson';
import * as shapefile from 'shapefile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countriesOf, loadCountriesTopology } from '../plugins/embedded/geodata/countries.ts';
import { linesCutAtAntimeridian } from '../scripts/lib/antimeridian.ts';
import { WGS84_PRJ } from '../scripts/lib/crs.ts';
import { buildSampleData } from '../scripts/lib/sample-data.ts';
import { textField, writeShapefile } from '../scripts/lib/write-shapefile.ts';
import { ShapeType } from '../src/shapefile/types.ts';

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

/** What GDAL (SpatiaLite's functions, GEOS's validity) answers to an SQL query on a file, one record of fields per row. */
function gdalQuery(path: string, sql: string): Record<string, string>[] {
  const listing = execFileSync('ogrinfo', ['-q', '-dialect', 'sqlite', '-sql', sql, path], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  return listing.split(/^OGRFeature\(SELECT\):\d+$/m).slice(1).map(fieldsOf);
}

/** The file as GDAL reads it, written out by ogr2ogr as GeoJSON. */
function gdalGeoJson(path: string, ...options: string[]): FeatureCollection<Geometry, Properties> {
  const json = execFileSync('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', ...options, path], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return JSON.parse(json) as FeatureCollection<Geometry, Properties>;
}

/** The lines of positions a geometry is drawn with: rings, lines, or each point alone. */
function pathsOf(geometry: Geometry): Position[][] {
  switch (geometry.type) {
    case 'Point': return [[geometry.coordinates]];
    case 'MultiPoint': return geometry.coordinates.map((point) => [point]);
    case 'LineString': return [geometry.coordinates];
    case 'MultiLineString':
    case 'Polygon': return geometry.coordinates;
    case 'MultiPolygon': return geometry.coordinates.flat();
    default: throw new Error(`unexpected ${geometry.type}`);
  }
}

/** The widest step in longitude between neighbouring vertices: more than 180° is a segment the long way round the world. */
function widestLongitudeStep(geometry: Geometry): number {
  let widest = 0;
  for (const path of pathsOf(geometry)) {
    for (let i = 1; i < path.length; i++) widest = Math.max(widest, Math.abs(path[i][0] - path[i - 1][0]));
  }
  return widest;
}

/** Twice the ring's signed area, y up: negative for a clockwise ring. */
function signedArea(ring: Position[]): number {
  let area = 0;
  for (let i = 1; i < ring.length; i++) area += (ring[i - 1][0] - ring[i][0]) * (ring[i - 1][1] + ring[i][1]);
  return area;
}

/** The ring made continuous: past ±180° it goes on to 181°, not back to -179°. */
function unwrapped(ring: Position[]): Position[] {
  let offset = 0;
  return ring.map(([x, y], i) => {
    if (i > 0 && x - ring[i - 1][0] < -180) offset += 360;
    if (i > 0 && x - ring[i - 1][0] > 180) offset -= 360;
    return [x + offset, y];
  });
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

  describe('cut at the antimeridian, as GDAL reads it', () => {
    const countriesPath = join(DATA_DIR, 'countries.shp');
    const sources = countriesOf(loadCountriesTopology('50m'));
    const crossing = sources.filter((country) => polygonsOf(country.geometry).flat().some((ring) => widestLongitudeStep({ type: 'LineString', coordinates: ring }) > 180));
    let before: string;
    let gdalCut: string;
    let ours: FeatureCollection<Geometry, Properties>;
    beforeAll(() => {
      const dir = mkdtempSync(join(tmpdir(), 'antimeridian-'));
      // The countries as the builder wrote them before they were cut: world-atlas's shapes as they are.
      before = join(dir, 'before.shp');
      writeShapefile(
        join(dir, 'before'),
        { shapeType: ShapeType.Polygon, prj: WGS84_PRJ, fields: [textField('NAME', sources.map((country) => country.name))] },
        sources.map((country) => ({ geometry: country.geometry, attributes: { NAME: country.name } })),
      );
      // GDAL's own cut, for reference: the crossing countries made continuous past 180°, then ogr2ogr -wrapdateline.
      const continuous = join(dir, 'continuous.geojson');
      const features = crossing.map((country) => ({
        type: 'Feature',
        properties: { NAME: country.name },
        geometry: { type: 'MultiPolygon', coordinates: polygonsOf(country.geometry).map((rings) => rings.map(unwrapped)) },
      }));
      writeFileSync(continuous, JSON.stringify({ type: 'FeatureCollection', features }));
      gdalCut = join(dir, 'gdal-cut.geojson');
      execFileSync('ogr2ogr', ['-f', 'GeoJSON', '-wrapdateline', gdalCut, continuous], { stdio: 'ignore' });
      ours = gdalGeoJson(countriesPath);
    });
    afterAll(() => rmSync(join(before, '..'), { recursive: true, force: true }));

    const measures = (path: string, layer: string) =>
      new Map(
        gdalQuery(path, `SELECT NAME, ST_Area(geometry) AS area, ST_NumGeometries(geometry) AS polygons, ST_IsValid(geometry) AS valid FROM "${layer}"`).map(
          (row) => [row.NAME, { area: Number(row.area), polygons: Number(row.polygons), valid: row.valid }],
        ),
      );

    it('concerns Russia, Fiji and Antarctica: the world-atlas countries that cross 180°', () => {
      expect(crossing.map((country) => country.name).sort()).toEqual(['Antarctica', 'Fiji', 'Russia']);
      // Before the cut GDAL read each of them as invalid (the band round the world crosses itself).
      const old = measures(before, 'before');
      for (const country of crossing) expect(old.get(country.name)?.valid, country.name).toBe('0');
    });

    it('has no segment across the world in countries or borders, and every centre within ±180°', () => {
      for (const name of ['countries', 'borders']) {
        const features = name === 'countries' ? ours.features : gdalGeoJson(join(DATA_DIR, `${name}.shp`)).features;
        const across = features.filter((feature) => widestLongitudeStep(feature.geometry) > 180).map((feature) => feature.properties.NAME);
        expect(across, name).toEqual([]);
      }
      for (const centre of gdalGeoJson(join(DATA_DIR, 'country_centres.shp')).features) {
        const [[lon, lat]] = pathsOf(centre.geometry)[0];
        expect(Math.abs(lon), String(centre.properties.NAME)).toBeLessThanOrEqual(180);
        expect(Math.abs(lat), String(centre.properties.NAME)).toBeLessThanOrEqual(90);
      }
    });

    it('reads every country as valid', () => {
      expect(gdalQuery(countriesPath, 'SELECT NAME FROM countries WHERE NOT ST_IsValid(geometry)')).toEqual([]);
    });

    it.each(['Russia', 'Fiji'])('makes %s a MultiPolygon with polygons on both sides of 180°, as GDAL cuts it', (name) => {
      const country = ours.features.find((feature) => feature.properties.NAME === name)!;
      expect(country.geometry.type).toBe('MultiPolygon');
      const polygons = polygonsOf(country.geometry);
      const east = polygons.filter(([outer]) => outer.every(([x]) => x >= 0) && outer.some(([x]) => x === 180));
      const west = polygons.filter(([outer]) => outer.every(([x]) => x <= 0) && outer.some(([x]) => x === -180));
      expect(east.length, 'polygons ending at +180°').toBeGreaterThan(0);
      expect(west.length, 'polygons ending at -180°').toBeGreaterThan(0);

      const reference = measures(gdalCut, 'continuous').get(name)!;
      const cut = measures(countriesPath, 'countries').get(name)!;
      expect(reference.valid).toBe('1');
      expect(cut.polygons).toBe(reference.polygons);
      expect(Math.abs(cut.area - reference.area) / reference.area).toBeLessThan(1e-5);
    });

    it('keeps the land on the right side: Chukotka in Russia, Viti Levu in Fiji, the South Pole in Antarctica, not the seas', () => {
      const contains = (name: string, [x, y]: Position) =>
        gdalQuery(countriesPath, `SELECT ST_Contains(geometry, MakePoint(${x}, ${y})) AS inside FROM countries WHERE NAME = '${name}'`)[0].inside;
      expect(contains('Russia', [-172, 66])).toBe('1');
      expect(contains('Russia', [0, 67])).toBe('0'); // the Norwegian Sea, where the band was
      expect(contains('Fiji', [178.5, -17.6])).toBe('1');
      expect(contains('Fiji', [0, -16.5])).toBe('0');
      expect(contains('Antarctica', [0, -89.5])).toBe('1');
      expect(contains('Antarctica', [106.84, -78.46])).toBe('1'); // Vostok
      expect(contains('Antarctica', [-120, -80])).toBe('1'); // Marie Byrd Land
      expect(contains('Antarctica', [0, -60])).toBe('0');
      // Like Natural Earth's own file: one polygon from -180° to 180°, closed along the pole.
      const antarctica = ours.features.find((feature) => feature.properties.NAME === 'Antarctica')!;
      const widest = polygonsOf(antarctica.geometry).find(([outer]) => outer.some(([x]) => x === -180) && outer.some(([x]) => x === 180));
      expect(widest).toBeDefined();
      expect(Math.min(...widest![0].map(([, y]) => y))).toBeLessThan(-89.99);
    });

    it('writes outer rings clockwise and holes counter-clockwise', () => {
      for (const feature of ours.features) {
        for (const [outer, ...holes] of polygonsOf(feature.geometry)) {
          expect(signedArea(outer), String(feature.properties.NAME)).toBeLessThan(0);
          for (const hole of holes) expect(signedArea(hole), String(feature.properties.NAME)).toBeGreaterThan(0);
        }
      }
    });

    it('would cut a border too (none crosses 180° today): a line ends on the meridian and goes on from the other side', () => {
      const cut = linesCutAtAntimeridian({ type: 'LineString', coordinates: [[170, 10], [-170, 20], [-160, 20]] });
      expect(cut.type).toBe('MultiLineString');
      const [east, west] = cut.coordinates as Position[][];
      expect(east[0]).toEqual([170, 10]);
      expect(east[east.length - 1][0]).toBe(180);
      expect(west[0][0]).toBe(-180);
      expect(west[0][1]).toBeCloseTo(east[east.length - 1][1], 12);
      expect(west.slice(1).map(([x, y]) => [Math.round(x * 1e9) / 1e9, Math.round(y * 1e9) / 1e9])).toEqual([[-170, 20], [-160, 20]]);
    });

    it('leaves every other country as it was, and no country with fewer polygons than world-atlas gives it', () => {
      const old = measures(before, 'before');
      const cut = measures(countriesPath, 'countries');
      expect([...cut.keys()]).toEqual([...old.keys()]);
      for (const country of sources) {
        const now = cut.get(country.name)!;
        expect(now.polygons, country.name).toBeGreaterThanOrEqual(polygonsOf(country.geometry).length);
        if (crossing.includes(country)) continue;
        const then = old.get(country.name)!;
        expect(now.polygons, country.name).toBe(then.polygons);
        expect(Math.abs(now.area - then.area), country.name).toBeLessThanOrEqual(then.area * 1e-9);
      }
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
