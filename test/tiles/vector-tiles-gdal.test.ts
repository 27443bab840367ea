/**
 * Our vector tiles as GDAL reads them (issue 32, "Tests"): a tile downloaded from the server
 * and opened with GDAL's MVT driver (coordinates in EPSG:3857, clipped to the tile) against
 * the shapefile's own features, reprojected and clipped to the same tile by GDAL itself
 * (`ogr2ogr -t_srs EPSG:3857 -clipdst`). Both land in one GeoPackage, and SpatiaLite's GEOS
 * functions measure, per feature, how far apart they are.
 *
 * What "the same" allows (docs/tiles.md, "Vector tiles: geometry"): a vertex moves by the
 * Douglas–Peucker tolerance (1 unit) and the rounding to the grid (√2/2 unit), so no point of
 * our geometry lies more than ~1.7 units from GDAL's (the Hausdorff distance; 2 units allowed,
 * which also covers the ≤ 2 m between our RD New datum shift and PROJ's at these zooms); a
 * polygon's boundary moves by as much, so the area between the two (their symmetric
 * difference) is at most that distance times the perimeter; a point lies within one unit.
 * The fixtures are written by ogr2ogr from the sample data: polygons in RD New (EPSG:28992),
 * lines and points in WGS 84.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tileBox, tileSpan, type TileAddress } from '../../src/projection/tile-address.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { TEST_RENDER, fetchTile, gdal, tileAt, writeShapefile } from '../support/tiles.ts';

const DATA = fileURLToPath(new URL('../../data/', import.meta.url));
/** Western Europe, where the fixtures' features are cut. */
const CLIP = ['-clipsrc', '0', '47', '12', '56'];

type Kind = 'polygons' | 'lines' | 'points';

interface Fixture {
  name: string;
  kind: Kind;
  shp: string;
}

/** One feature of the tile as both sides have it: GDAL's clip of the shapefile (ref) and our tile (ours), measured in metres. */
interface Row {
  /** How many parts each side has in the tile (0: nothing, the feature lies in the buffer alone). */
  ref_parts: number;
  our_parts: number;
  ref_fid: number | null;
  our_id: number | null;
  ref_area: number | null;
  our_area: number | null;
  /** A polygon's perimeter, a line's length. */
  ref_length: number | null;
  our_length: number | null;
  symdiff: number | null;
  hausdorff: number | null;
}

let server: TestServer;
let folder: string;
const fixtures: Record<Kind, Fixture> = {} as Record<Kind, Fixture>;

beforeAll(async () => {
  folder = makeTempDir('shapeshot-vector-tiles-');
  const written = await Promise.all([
    writeShapefile(folder, 'polygons_rd', join(DATA, 'countries.shp'), ['-t_srs', 'EPSG:28992', ...CLIP, '-select', 'NAME,ISO_N3,AREA_KM2']),
    writeShapefile(folder, 'lines_wgs84', join(DATA, 'borders.shp'), [...CLIP, '-select', 'NAME_EN']),
    writeShapefile(folder, 'points_wgs84', join(DATA, 'country_centres.shp'), ['-spat', '-12', '35', '30', '62', '-select', 'NAME,ISO_N3,CAPITAL']),
  ]);
  fixtures.polygons = { name: 'polygons_rd', kind: 'polygons', shp: written[0] };
  fixtures.lines = { name: 'lines_wgs84', kind: 'lines', shp: written[1] };
  fixtures.points = { name: 'points_wgs84', kind: 'points', shp: written[2] };
  server = await startServer({ dataDir: folder, render: TEST_RENDER });
}, 60_000);

afterAll(async () => {
  await server?.close();
  removeTempDirs();
});

let tileFiles = 0;

/** The tile as bytes on disk, and a GeoPackage holding GDAL's clip of the shapefile (`ref`) and GDAL's reading of the tile (`ours`). */
async function bothSides(fixture: Fixture, tile: TileAddress, query: Record<string, string> = {}, where?: string) {
  const bytes = await fetchTile(server, fixture.name, tile, 'mvt', query);
  const stem = join(folder, `tile-${tileFiles++}`);
  const mvt = `${stem}.mvt`;
  writeFileSync(mvt, bytes);
  const gpkg = `${stem}.gpkg`;
  const { xmin, ymin, xmax, ymax } = tileBox(tile);
  const sql = `SELECT FID AS src_fid, * FROM ${fixture.name}${where ? ` WHERE ${where}` : ''}`;
  await gdal('ogr2ogr', ['-f', 'GPKG', gpkg, fixture.shp, '-sql', sql, '-t_srs', 'EPSG:3857', '-clipdst', ...[xmin, ymin, xmax, ymax].map(String), '-nln', 'ref', '-nlt', 'PROMOTE_TO_MULTI', '-lco', 'GEOMETRY_NAME=geom']);
  await gdal('ogr2ogr', ['-update', gpkg, mvt, ...tileOpenOptions(tile), '-oo', 'CLIP=NO', '-nln', 'ours', '-nlt', 'PROMOTE_TO_MULTI', '-lco', 'GEOMETRY_NAME=geom']);
  return { mvt, gpkg };
}

/**
 * GDAL's MVT driver reading a lone tile file: its address, so that it can place the tile's
 * units in EPSG:3857. The tests read the tile whole (CLIP=NO) and clip it to the tile
 * themselves (ourClipped): GDAL's own clip cannot take a polygon whose clipped ring runs
 * along the buffer's edge and back (docs/tiles.md, "Vector tiles: geometry"), which GEOS calls a
 * self-intersection, and GDAL then gives the feature unclipped, buffer and all.
 */
function tileOpenOptions({ z, x, y }: TileAddress): string[] {
  return ['-oo', `X=${x}`, '-oo', `Y=${y}`, '-oo', `Z=${z}`];
}

/** Rows of a SQL query on the GeoPackage (SpatiaLite's functions at hand), as objects. */
async function query<T>(gpkg: string, sql: string): Promise<T[]> {
  const json = await gdal('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', gpkg, '-dialect', 'SQLite', '-sql', sql]);
  return (JSON.parse(json) as { features: { properties: T }[] }).features.map((feature) => feature.properties);
}

/**
 * Our features clipped to the tile, as GDAL's clip of the shapefile is: polygons made valid
 * first (a buffer of 0 joins a ring's runs along the buffer's edge into one boundary).
 */
function ourClipped(kind: Kind, tile: TileAddress): string {
  const { xmin, ymin, xmax, ymax } = tileBox(tile);
  const valid = kind === 'polygons' ? 'ST_Buffer(geom, 0)' : 'geom';
  return `SELECT mvt_id, ST_Intersection(${valid}, BuildMbr(${xmin}, ${ymin}, ${xmax}, ${ymax}, 3857)) AS geom FROM ours`;
}

const MEASURES = (r: string, o: string) => `
  COALESCE(ST_NumGeometries(${r}.geom), 0) AS ref_parts, COALESCE(ST_NumGeometries(${o}.geom), 0) AS our_parts,
  ST_Area(${r}.geom) AS ref_area, ST_Area(${o}.geom) AS our_area,
  COALESCE(ST_Perimeter(${r}.geom), ST_Length(${r}.geom)) AS ref_length, COALESCE(ST_Perimeter(${o}.geom), ST_Length(${o}.geom)) AS our_length,
  COALESCE(ST_Area(ST_SymDifference(${r}.geom, ${o}.geom)), 0) AS symdiff,
  HausdorffDistance(${r}.geom, ${o}.geom) AS hausdorff`;

/** Every feature of either side, paired by fid (ours by its MVT id). */
async function pairedFeatures(gpkg: string, kind: Kind, tile: TileAddress): Promise<Row[]> {
  return query<Row>(
    gpkg,
    `WITH o AS (${ourClipped(kind, tile)})
     SELECT r.src_fid AS ref_fid, o.mvt_id AS our_id, ${MEASURES('r', 'o')} FROM ref r LEFT JOIN o ON o.mvt_id = r.src_fid
     UNION ALL
     SELECT NULL AS ref_fid, o.mvt_id AS our_id, ${MEASURES('o', 'o')} FROM o WHERE o.mvt_id NOT IN (SELECT src_fid FROM ref)`,
  );
}

/**
 * A feature one side has and the other does not is allowed only when it has nothing in the
 * tile (ours reaches into the buffer), or is a sliver within `reach` metres of the tile's
 * edge: a polygon thinner than that (area < reach × perimeter / 2), a line shorter than it.
 * GDAL's clip keeps what touches the edge; ours keeps what the rounding puts on it.
 */
function isSliver(parts: number, area: number | null, length: number | null, kind: Kind, reach: number): boolean {
  if (parts === 0) return true;
  if (kind === 'polygons') return (area ?? 0) <= (reach * (length ?? 0)) / 2;
  if (kind === 'lines') return (length ?? 0) <= reach;
  return false;
}

/** Compares one tile of a fixture with GDAL's clip, and returns what it measured, for the record. */
async function compareTile(fixture: Fixture, tile: TileAddress) {
  const { gpkg } = await bothSides(fixture, tile);
  const rows = await pairedFeatures(gpkg, fixture.kind, tile);
  const unit = tileSpan(tile.z) / 4096;
  const where = `${fixture.name} ${tile.z}/${tile.x}/${tile.y}`;
  let worstHausdorff = 0;
  let worstSymdiff = 0;
  let matched = 0;
  for (const row of rows) {
    const feature = `${where}, fid ${row.ref_fid ?? row.our_id}`;
    if (row.our_id === null) {
      expect(isSliver(row.ref_parts, row.ref_area, row.ref_length, fixture.kind, 2 * unit), `${feature}: GDAL's clip holds it, our tile does not`).toBe(true);
      continue;
    }
    if (row.ref_fid === null) {
      expect(isSliver(row.our_parts, row.our_area, row.our_length, fixture.kind, 2 * unit), `${feature}: our tile holds it, GDAL's clip does not`).toBe(true);
      continue;
    }
    matched++;
    const hausdorffUnits = (row.hausdorff ?? Infinity) / unit;
    worstHausdorff = Math.max(worstHausdorff, hausdorffUnits);
    if (fixture.kind === 'points') {
      expect(hausdorffUnits, `${feature}: the point's place, in tile units`).toBeLessThanOrEqual(1);
    } else {
      expect(hausdorffUnits, `${feature}: Hausdorff distance in tile units`).toBeLessThanOrEqual(2);
    }
    if (fixture.kind === 'polygons') {
      const symdiffUnits = row.symdiff! / unit / row.ref_length!;
      worstSymdiff = Math.max(worstSymdiff, symdiffUnits);
      expect(symdiffUnits, `${feature}: symmetric difference / perimeter, in tile units`).toBeLessThanOrEqual(2);
      expect(Math.abs(row.our_area! - row.ref_area!), `${feature}: area`).toBeLessThanOrEqual(2 * unit * row.ref_length!);
    }
    if (fixture.kind === 'lines') {
      expect(Math.abs(row.our_length! - row.ref_length!), `${feature}: length`).toBeLessThanOrEqual(Math.max(0.01 * row.ref_length!, 2 * unit));
    }
  }
  return { matched, worstHausdorff, worstSymdiff, rows };
}

describe("GDAL's MVT driver reads our tiles as the shapefile's features clipped to the tile", () => {
  // Each list: a tile holding whole features, one cutting them at its edges, one deep inside or along a feature.
  const cases: [Kind, TileAddress, number][] = [
    // z5 holds the Netherlands, Belgium and Luxembourg whole, and cuts France, Germany, the UK and Denmark.
    ['polygons', tileAt(6.1, 49.8, 5), 7],
    // The Netherlands, Belgium and Germany cut.
    ['polygons', tileAt(5.9, 51.6, 8), 3],
    // Luxembourg, Belgium and France meet: cut on every side.
    ['polygons', tileAt(5.85, 49.55, 11), 3],
    ['lines', tileAt(6.1, 49.8, 5), 9],
    ['lines', tileAt(6.0, 50.8, 8), 3],
    ['lines', tileAt(4.93, 51.44, 12), 1],
    ['points', tileAt(6.1, 49.8, 4), 20],
    ['points', tileAt(6.1, 49.8, 7), 1],
  ];

  it.each(cases)('%s, tile %o: the same features (%i or more), within the grid and the simplification', async (kind, tile, atLeast) => {
    const { matched, worstHausdorff, worstSymdiff } = await compareTile(fixtures[kind], tile);
    expect(matched).toBeGreaterThanOrEqual(atLeast);
    console.log(`${kind} ${tile.z}/${tile.x}/${tile.y}: ${matched} features; worst Hausdorff ${worstHausdorff.toFixed(2)} units; worst symdiff/perimeter ${worstSymdiff.toFixed(3)} units`);
  });
});

/** GDAL's reading of a lone tile file, feature by feature: its MVT id and properties. */
async function tileFeatures(bytes: Uint8Array, tile: TileAddress): Promise<Record<string, unknown>[]> {
  const mvt = join(folder, `tile-${tileFiles++}.mvt`);
  writeFileSync(mvt, bytes);
  const json = await gdal('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', mvt, ...tileOpenOptions(tile)]);
  return (JSON.parse(json) as { features: { properties: Record<string, unknown> }[] }).features.map((feature) => feature.properties);
}

/** The shapefile's rows as GDAL reads them, by fid: the named fields. */
async function shapefileRows(fixture: Fixture, fields: string[]): Promise<Map<number, Record<string, unknown>>> {
  const json = await gdal('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', fixture.shp, '-sql', `SELECT FID AS src_fid, ${fields.join(', ')} FROM ${fixture.name}`]);
  const rows = (JSON.parse(json) as { features: { properties: Record<string, unknown> }[] }).features.map((feature) => feature.properties);
  return new Map(rows.map(({ src_fid, ...values }) => [src_fid as number, values]));
}

function withoutNulls(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null));
}

describe('fields= and where= as GDAL reads them', () => {
  const tile = tileAt(6.1, 49.8, 4);

  it("carries the named fields with the shapefile's values, and none unnamed", async () => {
    const fields = ['NAME', 'ISO_N3'];
    const [named, bare, rows] = await Promise.all([
      fetchTile(server, fixtures.points.name, tile, 'mvt', { fields: fields.join(',') }).then((bytes) => tileFeatures(bytes, tile)),
      fetchTile(server, fixtures.points.name, tile, 'mvt').then((bytes) => tileFeatures(bytes, tile)),
      shapefileRows(fixtures.points, fields),
    ]);
    expect(named.length).toBeGreaterThanOrEqual(20);
    for (const { mvt_id, ...properties } of named) {
      // An empty value is left out of the tile (MVT has no null), and GDAL's reading of the .dbf gives it as null.
      expect(properties, `fid ${String(mvt_id)}`).toEqual(withoutNulls(rows.get(mvt_id as number) ?? {}));
    }
    expect(new Set(named.map(({ NAME }) => NAME)).size).toBeGreaterThanOrEqual(20);
    expect(bare.map((feature) => Object.keys(feature))).toEqual(bare.map(() => ['mvt_id']));
    expect(bare.map(({ mvt_id }) => mvt_id)).toEqual(named.map(({ mvt_id }) => mvt_id));
  });

  it.each([
    ['points', "NAME LIKE 'B%'"],
    ['polygons', 'AREA_KM2 > 100000'],
  ] as [Kind, string][])('%s with where=%s holds the features GDAL selects with it, and no other', async (kind, where) => {
    const fixture = fixtures[kind];
    const place = kind === 'points' ? tile : tileAt(6.1, 49.8, 5);
    const [all, { gpkg }] = await Promise.all([
      fetchTile(server, fixture.name, place, 'mvt').then((bytes) => tileFeatures(bytes, place)),
      bothSides(fixture, place, { where }, where),
    ]);
    const rows = await pairedFeatures(gpkg, kind, place);
    const selected = rows.filter((row) => row.ref_fid !== null).map((row) => row.ref_fid).sort((a, b) => a! - b!);
    expect(rows.map((row) => row.our_id).sort((a, b) => a! - b!)).toEqual(selected);
    // The filter leaves some out, and keeps some.
    expect(selected.length).toBeGreaterThanOrEqual(2);
    expect(all.length).toBeGreaterThan(selected.length + 1);
  });
});
