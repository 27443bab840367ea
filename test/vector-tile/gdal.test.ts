/**
 * GDAL reads our vector tiles (docs/tiles.md, "Vector tiles: geometry"; issue 32's test):
 * countries, borders and country centres as ogr2ogr writes them, read with our reader,
 * reprojected to Web Mercator and encoded as the tile over Lesotho's western edge, where
 * South Africa's hole crosses the tile's side. GDAL's MVT driver reads the tile back (it clips
 * to the tile itself, not its buffer), and gets what ogr2ogr's own clip of the same features
 * to the tile gives, within the quantization: areas, lines and points, per feature id.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Feature, FeatureCollection, Geometry, Position } from 'geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noCheckpoint } from '../../src/cancellation/checkpoint.ts';
import { mercatorTransform, reprojectShape } from '../../src/map/reproject.ts';
import { tileBox, tileSpan } from '../../src/projection/tile-address.ts';
import { pickFields } from '../../src/shapefile/dbf.ts';
import { openShapefile } from '../../src/shapefile/file-set.ts';
import { encodeVectorTile, type TileFeature } from '../../src/vector-tile/encode.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { decodedFeatures, partsOf, surveyorArea, unitPoints } from './tile-units.ts';

const DATA = new URL('../../data/', import.meta.url).pathname;
/** Lon 22.5°–28.125°E, lat 27.06°–31.95°S: most of Lesotho, cut by the tile's east side. */
const TILE = { z: 6, x: 36, y: 37 };
const BOX = tileBox(TILE);
const UNIT = tileSpan(TILE.z) / 4096;
/** Douglas–Peucker's unit plus rounding's half-diagonal, rounded up. */
const QUANTIZATION = 2 * UNIT;

let dir: string;

beforeAll(() => {
  dir = makeTempDir('vector-tile-gdal-');
  for (const name of ['countries', 'borders', 'country_centres']) {
    execFileSync('ogr2ogr', ['-f', 'ESRI Shapefile', join(dir, `${name}.shp`), join(DATA, `${name}.shp`)], { stdio: 'pipe' });
  }
});
afterAll(() => removeTempDirs());

/** Every feature of shapefile `name` in `dir`, read by our reader and reprojected, with `fields`. */
function tileFeatures(name: string, fields: string[]): TileFeature[] {
  const paths = Object.fromEntries(['shp', 'shx', 'dbf', 'prj', 'cpg'].map((kind) => [kind, join(dir, `${name}.${kind}`)]));
  const layer = openShapefile({ name, paths: paths as { shp: string } }, dir, undefined, noCheckpoint)!;
  const toMercator = mercatorTransform(layer.crs, name);
  const features: TileFeature[] = [];
  for (let fid = 0; fid < layer.featureCount; fid++) {
    const shape = layer.readShape(fid, { useCache: false, maxRings: 100_000, checkpoint: noCheckpoint });
    if (shape) features.push({ id: fid, shape: reprojectShape(shape, toMercator, fid, name, noCheckpoint), properties: pickFields(layer.readAttributes(fid), fields) });
  }
  layer.close();
  return features;
}

/** The tile of shapefile `name`, written to a file, and GDAL's reading of it: features by their mvt_id. */
function gdalReading(name: string, bytes: Uint8Array): Map<number, Feature> {
  const tile = join(dir, `${name}.mvt`);
  const out = join(dir, `${name}-mvt.geojson`);
  writeFileSync(tile, bytes);
  execFileSync('ogr2ogr', ['-f', 'GeoJSON', out, tile, '-oo', `X=${TILE.x}`, '-oo', `Y=${TILE.y}`, '-oo', `Z=${TILE.z}`], { stdio: 'pipe' });
  const read = JSON.parse(readFileSync(out, 'utf8')) as FeatureCollection;
  return new Map(read.features.map((feature) => [feature.properties!.mvt_id as number, feature]));
}

/** ogr2ogr's clip of shapefile `name` to the tile, in Web Mercator: features by their fid. */
function gdalClip(name: string): Map<number, Feature> {
  const out = join(dir, `${name}-clip.geojson`);
  const box = [BOX.xmin, BOX.ymin, BOX.xmax, BOX.ymax].map(String);
  execFileSync('ogr2ogr', ['-f', 'GeoJSON', '-preserve_fid', '-t_srs', 'EPSG:3857', '-clipdst', ...box, out, join(dir, `${name}.shp`)], { stdio: 'pipe' });
  const clip = JSON.parse(readFileSync(out, 'utf8')) as FeatureCollection;
  return new Map(clip.features.filter((feature) => feature.geometry).map((feature) => [feature.id as number, feature]));
}

function polygonsOf(geometry: Geometry | null): Position[][][] {
  if (geometry?.type === 'Polygon') return [geometry.coordinates];
  if (geometry?.type === 'MultiPolygon') return geometry.coordinates;
  return [];
}

function linesOf(geometry: Geometry | null): Position[][] {
  if (geometry?.type === 'LineString') return [geometry.coordinates];
  if (geometry?.type === 'MultiLineString') return geometry.coordinates;
  return [];
}

function ringArea(ring: Position[]): number {
  let twice = 0;
  for (let i = 0; i < ring.length - 1; i++) twice += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
  return Math.abs(twice / 2);
}

/** Filled area: each polygon's outer ring less its holes. */
function area(geometry: Geometry | null): number {
  return polygonsOf(geometry).reduce((sum, [outer, ...holes]) => sum + ringArea(outer) - holes.reduce((h, hole) => h + ringArea(hole), 0), 0);
}

function length(lines: Position[][]): number {
  return lines.reduce((sum, line) => sum + line.slice(1).reduce((s, p, i) => s + Math.hypot(p[0] - line[i][0], p[1] - line[i][1]), 0), 0);
}

function distanceToLines(p: Position, lines: Position[][]): number {
  let best = Infinity;
  for (const line of lines) {
    for (let i = 1; i < line.length; i++) {
      const [a, b] = [line[i - 1], line[i]];
      const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
      const t = dx === 0 && dy === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)));
      best = Math.min(best, Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy));
    }
  }
  return best;
}

/** The farthest any vertex of either line set lies from the other. */
function hausdorff(a: Position[][], b: Position[][]): number {
  const farthest = (from: Position[][], to: Position[][]) => Math.max(...from.flat().map((p) => distanceToLines(p, to)));
  return Math.max(farthest(a, b), farthest(b, a));
}

describe("GDAL's MVT driver reads our tile", () => {
  it("of polygons as ogr2ogr's clip of them to the tile, South Africa with the part of its hole (Lesotho) in the tile", () => {
    const features = tileFeatures('countries', ['NAME']);
    const bytes = encodeVectorTile('countries', TILE, features, noCheckpoint);
    const read = gdalReading('countries', bytes);
    const clip = gdalClip('countries');
    const southAfrica = features.find((feature) => feature.properties.NAME === 'South Africa')!.id!;
    const lesotho = features.find((feature) => feature.properties.NAME === 'Lesotho')!.id!;
    expect([...clip.keys()]).toEqual(expect.arrayContaining([southAfrica, lesotho]));
    for (const [fid, clipped] of clip) {
      const perimeter = polygonsOf(clipped.geometry).flat().reduce((sum, ring) => sum + length([ring]), 0);
      const ours = read.get(fid);
      expect(ours?.properties?.NAME, `fid ${fid}`).toBe(clipped.properties!.NAME);
      expect(Math.abs(area(ours!.geometry) - area(clipped.geometry)), `${clipped.properties!.NAME}`).toBeLessThanOrEqual(perimeter * QUANTIZATION);
    }
    // What GDAL reads beyond ogr2ogr's clip lies in the buffer only: nothing of it in the tile.
    for (const [fid, feature] of read) if (!clip.has(fid)) expect(area(feature.geometry), `fid ${fid}`).toBeLessThan(UNIT * UNIT);
    // In the tile itself, Lesotho is a hole of South Africa's, clipped at the buffer's edge.
    const [ours] = decodedFeatures(bytes, 'countries').filter((feature) => feature.id === southAfrica);
    const rings = partsOf(ours);
    expect(rings.filter((ring) => surveyorArea(ring) < 0).length).toBeGreaterThanOrEqual(1);
    const hole = rings.find((ring) => surveyorArea(ring) < 0)!;
    expect(Math.max(...hole.map(([x]) => x))).toBe(4096 + 64);
  });

  it("of lines as ogr2ogr's clip of them, within the quantization", () => {
    const bytes = encodeVectorTile('borders', TILE, tileFeatures('borders', ['NAME_EN']), noCheckpoint);
    const read = gdalReading('borders', bytes);
    const clip = gdalClip('borders');
    expect(clip.size).toBeGreaterThan(0);
    for (const [fid, clipped] of clip) {
      const ours = read.get(fid);
      expect(ours?.properties?.NAME_EN).toBe(clipped.properties!.NAME_EN);
      expect(hausdorff(linesOf(ours!.geometry), linesOf(clipped.geometry)), clipped.properties!.NAME_EN).toBeLessThanOrEqual(QUANTIZATION);
    }
  });

  it("of points as ogr2ogr's clip of them, each within the rounding", () => {
    const bytes = encodeVectorTile('country_centres', TILE, tileFeatures('country_centres', ['NAME']), noCheckpoint);
    const read = gdalReading('country_centres', bytes);
    const clip = gdalClip('country_centres');
    expect(clip.size).toBeGreaterThan(0);
    for (const [fid, clipped] of clip) {
      const ours = read.get(fid)?.geometry;
      const expected = (clipped.geometry as GeoJSON.Point).coordinates;
      const got = ours?.type === 'Point' ? ours.coordinates : (ours as GeoJSON.MultiPoint).coordinates[0];
      expect(Math.hypot(got[0] - expected[0], got[1] - expected[1]), `fid ${fid}`).toBeLessThanOrEqual(UNIT);
    }
  });

  it('with each property as its type, nulls left out, and a tile with no features as its empty layer', () => {
    const properties = { NAME: 'Zuid-Afrika', COUNT: 3, BELOW: -4, SHARE: 2.5, LANDLOCKED: false, EMPTY: null, HUGE: 1e20 };
    const tile = join(dir, 'types.mvt');
    writeFileSync(tile, encodeVectorTile('types', TILE, [{ id: 1, shape: unitPoints(TILE, [[10, 10]]), properties }], noCheckpoint));
    const info = execFileSync('ogrinfo', ['-ro', '-al', '-so', '-oo', `X=${TILE.x}`, '-oo', `Y=${TILE.y}`, '-oo', `Z=${TILE.z}`, tile], { encoding: 'utf8' });
    const fields = Object.fromEntries([...info.matchAll(/^(\w+): ([\w()]+) \(/gm)].map(([, field, type]) => [field, type]));
    expect(fields).toEqual({ mvt_id: 'Integer64', NAME: 'String', COUNT: 'Integer', BELOW: 'Integer', SHARE: 'Real', LANDLOCKED: 'Integer(Boolean)', HUGE: 'Real' });
    const empty = join(dir, 'empty.mvt');
    writeFileSync(empty, encodeVectorTile('empty', TILE, [], noCheckpoint));
    const emptyInfo = execFileSync('ogrinfo', ['-ro', '-al', '-so', '-oo', `X=${TILE.x}`, '-oo', `Y=${TILE.y}`, '-oo', `Z=${TILE.z}`, empty], { encoding: 'utf8' });
    expect(emptyInfo).toMatch(/Layer name: empty\n[\s\S]*Feature Count: 0/);
  });
});
