import { readFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BadRequestError, DamagedShapefileError, NotFoundError } from '../../src/errors.ts';
import type { Geometry } from '../../src/geometry/types.ts';
import { createCatalog, type TestCatalog } from '../support/catalog.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { editFile, recordLocation, writeShapefile } from './helpers.ts';

afterAll(removeTempDirs);

const catalogs: TestCatalog[] = [];
afterEach(async () => {
  await Promise.all(catalogs.splice(0).map((catalog) => catalog.close()));
});

function catalogOf(dir: string, cacheBytes = 0): TestCatalog {
  const catalog = createCatalog({ dataDir: dir, cacheBytes });
  catalogs.push(catalog);
  return catalog;
}

async function readAll(dir: string, name: string): Promise<(Geometry | null)[]> {
  const shapefile = (await catalogOf(dir).open(name))!;
  const geometries = [];
  for (let fid = 0; fid < shapefile.featureCount; fid++) {
    geometries.push(await shapefile.readGeometry(fid, { useCache: false }));
  }
  return geometries;
}

/** Counter-clockwise in y-up coordinates: the opposite of what ESRI wants for an outer ring. */
const ccwSquare = (x: number, y: number, side: number) => [
  [x, y],
  [x + side, y],
  [x + side, y + side],
  [x, y + side],
  [x, y],
];
const cwSquare = (x: number, y: number, side: number) => ccwSquare(x, y, side).reverse();

describe('writing and reading every shape type', () => {
  it('round-trips points, with a null record between', async () => {
    const dir = makeTempDir();
    writeShapefile(dir, 'points', ShapeType.Point, [
      { type: 'Point', coordinates: [4.9, 52.37] },
      null,
      { type: 'Point', coordinates: [-70.01, 12.5] },
    ]);
    expect(await readAll(dir, 'points')).toEqual([
      { type: 'Point', coordinates: [4.9, 52.37] },
      null,
      { type: 'Point', coordinates: [-70.01, 12.5] },
    ]);
  });

  it('round-trips single- and multi-part polylines', async () => {
    const dir = makeTempDir();
    const line: Geometry = { type: 'LineString', coordinates: [[0, 0], [10, 5], [20, 0]] };
    const multi: Geometry = { type: 'MultiLineString', coordinates: [[[0, 0], [1, 1]], [[5, 5], [6, 7], [8, 9]]] };
    writeShapefile(dir, 'lines', ShapeType.PolyLine, [line, multi]);
    expect(await readAll(dir, 'lines')).toEqual([line, multi]);
  });

  it('round-trips multipoints', async () => {
    const dir = makeTempDir();
    const cities: Geometry = { type: 'MultiPoint', coordinates: [[1, 2], [3, 4], [5, 6]] };
    writeShapefile(dir, 'cities', ShapeType.MultiPoint, [cities]);
    expect(await readAll(dir, 'cities')).toEqual([cities]);
  });

  it('stores polygons the ESRI way whatever their orientation, keeping holes with their outer ring', async () => {
    const dir = makeTempDir();
    writeShapefile(dir, 'parcels', ShapeType.Polygon, [
      // GeoJSON (RFC 7946) orientation: outer counter-clockwise, hole clockwise.
      { type: 'Polygon', coordinates: [ccwSquare(0, 0, 10), cwSquare(2, 2, 2)] },
      // Two polygons, the second with a hole, given in ESRI orientation already.
      { type: 'MultiPolygon', coordinates: [[cwSquare(20, 0, 5)], [cwSquare(40, 0, 10), ccwSquare(42, 2, 3)]] },
    ]);
    const [single, multi] = await readAll(dir, 'parcels');
    expect(single).toEqual({ type: 'Polygon', coordinates: [cwSquare(0, 0, 10), ccwSquare(2, 2, 2)] });
    expect(multi).toEqual({
      type: 'MultiPolygon',
      coordinates: [[cwSquare(20, 0, 5)], [cwSquare(40, 0, 10), ccwSquare(42, 2, 3)]],
    });
  });

  it('closes open rings', async () => {
    const dir = makeTempDir();
    writeShapefile(dir, 'open', ShapeType.Polygon, [
      { type: 'Polygon', coordinates: [[[0, 0], [0, 1], [1, 1], [1, 0]]] },
    ]);
    expect(await readAll(dir, 'open')).toEqual([{ type: 'Polygon', coordinates: [[[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]]] }]);
  });

  it.each<[string, number, Geometry]>([
    ['PointZ', ShapeType.PointZ, { type: 'Point', coordinates: [1, 2, 30, 4] }],
    ['PointM', ShapeType.PointM, { type: 'Point', coordinates: [1, 2, 7] }],
    ['PolyLineZ', ShapeType.PolyLineZ, { type: 'MultiLineString', coordinates: [[[0, 0, 1], [1, 1, 2]], [[2, 2, 3], [3, 3, 4]]] }],
    ['PolyLineM', ShapeType.PolyLineM, { type: 'LineString', coordinates: [[0, 0, 5], [1, 1, 6]] }],
    ['PolygonZ', ShapeType.PolygonZ, { type: 'Polygon', coordinates: [cwSquare(0, 0, 4).map(([x, y]) => [x, y, 9])] }],
    ['PolygonM', ShapeType.PolygonM, { type: 'Polygon', coordinates: [cwSquare(0, 0, 4).map(([x, y]) => [x, y, 2])] }],
    ['MultiPointZ', ShapeType.MultiPointZ, { type: 'MultiPoint', coordinates: [[1, 1, 10], [2, 2, 20]] }],
    ['MultiPointM', ShapeType.MultiPointM, { type: 'MultiPoint', coordinates: [[1, 1, 10], [2, 2, 20]] }],
  ])('reads %s records in 2-D', async (_name, shapeType, geometry) => {
    const dir = makeTempDir();
    writeShapefile(dir, 'measured', shapeType, [geometry, null]);
    const shapefile = (await catalogOf(dir).open('measured'))!;
    expect(shapefile.shapeType).toBe(shapeType);
    const flat = JSON.parse(JSON.stringify(geometry, (key, value) =>
      Array.isArray(value) && typeof value[0] === 'number' ? value.slice(0, 2) : value));
    expect(await shapefile.readGeometry(0, { useCache: false })).toEqual(flat);
    expect(await shapefile.readGeometry(1, { useCache: false })).toBeNull();
  });

  it('writes the Z range into the header of a Z shapefile', () => {
    const dir = makeTempDir();
    const base = writeShapefile(dir, 'heights', ShapeType.PointZ, [
      { type: 'Point', coordinates: [0, 0, -3] },
      { type: 'Point', coordinates: [1, 1, 12] },
    ]);
    const header = readFileSync(`${base}.shp`);
    expect([header.readDoubleLE(68), header.readDoubleLE(76)]).toEqual([-3, 12]);
  });

  it('reports the header facts: type, count and bounding box', async () => {
    const dir = makeTempDir();
    writeShapefile(dir, 'boxed', ShapeType.MultiPoint, [
      { type: 'MultiPoint', coordinates: [[-5, 3], [7, 9]] },
      null,
      { type: 'Point', coordinates: [2, -1] },
    ]);
    const shapefile = (await catalogOf(dir).open('boxed'))!;
    expect(shapefile).toMatchObject({
      name: 'boxed',
      shapeType: ShapeType.MultiPoint,
      featureCount: 3,
      bbox: { xmin: -5, ymin: -1, xmax: 7, ymax: 9 },
    });
  });

  it('refuses a geometry the shape type cannot hold', () => {
    const dir = makeTempDir();
    expect(() => writeShapefile(dir, 'wrong', ShapeType.Point, [{ type: 'LineString', coordinates: [[0, 0], [1, 1]] }]))
      .toThrow(/LineString cannot be written to a point shapefile/);
  });
});

describe('feature ids', () => {
  it('are record positions, whatever record numbers the file carries', async () => {
    const dir = makeTempDir();
    const base = writeShapefile(dir, 'renumbered', ShapeType.Point, [
      { type: 'Point', coordinates: [0, 0] },
      { type: 'Point', coordinates: [1, 1] },
    ]);
    editFile(`${base}.shp`, (bytes) => {
      bytes.writeInt32BE(0, recordLocation(base, 0).offset);
      bytes.writeInt32BE(7, recordLocation(base, 1).offset);
      return bytes;
    });
    expect(await readAll(dir, 'renumbered')).toEqual([
      { type: 'Point', coordinates: [0, 0] },
      { type: 'Point', coordinates: [1, 1] },
    ]);
  });

  it('past the last record are not found, naming the id and the count', async () => {
    const dir = makeTempDir();
    writeShapefile(dir, 'ten', ShapeType.Point, Array.from({ length: 10 }, (_, i) => ({ type: 'Point', coordinates: [i, i] }) as Geometry));
    const shapefile = (await catalogOf(dir).open('ten'))!;
    const past = shapefile.readGeometry(12, { useCache: true });
    await expect(past).rejects.toBeInstanceOf(NotFoundError);
    await expect(past).rejects.toThrow("Feature 12 does not exist in shapefile 'ten' (it has 10 features).");
    await expect(shapefile.readGeometry(-1, { useCache: false })).rejects.toBeInstanceOf(NotFoundError);
    await expect(shapefile.readAttributes(10)).rejects.toBeInstanceOf(NotFoundError);
    expect(await shapefile.readGeometry(9, { useCache: true })).toEqual({ type: 'Point', coordinates: [9, 9] });
  });
});

describe('shapes shapeshot cannot draw', () => {
  it('answers a MultiPatch shapefile with a bad request naming the type', async () => {
    const dir = makeTempDir();
    const base = writeShapefile(dir, 'buildings', ShapeType.Point, [{ type: 'Point', coordinates: [0, 0] }]);
    for (const extension of ['shp', 'shx']) {
      editFile(`${base}.${extension}`, (bytes) => {
        bytes.writeInt32LE(ShapeType.MultiPatch, 32);
        return bytes;
      });
    }
    const shapefile = (await catalogOf(dir).open('buildings'))!;
    const read = shapefile.readGeometry(0, { useCache: false });
    await expect(read).rejects.toBeInstanceOf(BadRequestError);
    await expect(read).rejects.toThrow("Shapefile 'buildings' has shape type MultiPatch, which shapeshot cannot draw.");
  });

  it('answers a record whose type differs from the header as damage', async () => {
    const dir = makeTempDir();
    const base = writeShapefile(dir, 'mixed', ShapeType.Point, [
      { type: 'Point', coordinates: [0, 0] },
      { type: 'Point', coordinates: [1, 1] },
    ]);
    editFile(`${base}.shp`, (bytes) => {
      bytes.writeInt32LE(ShapeType.PointZ, recordLocation(base, 0).offset + 8);
      return bytes;
    });
    const shapefile = (await catalogOf(dir).open('mixed'))!;
    const read = shapefile.readGeometry(0, { useCache: false });
    await expect(read).rejects.toBeInstanceOf(DamagedShapefileError);
    await expect(read).rejects.toThrow(/'mixed\.shp'.*record 0 has shape type PointZ.*header says Point/);
    expect(await shapefile.readGeometry(1, { useCache: false })).toEqual({ type: 'Point', coordinates: [1, 1] });
  });
});

describe('attributes', () => {
  it('reads the row of a feature with character and numeric fields', async () => {
    const dir = makeTempDir();
    writeShapefile(dir, 'towns', ShapeType.Point, [{ type: 'Point', coordinates: [0, 0] }, null], {
      fields: [
        { name: 'NAME', type: 'C', length: 20 },
        { name: 'POP', type: 'N', length: 9 },
        { name: 'AREA', type: 'N', length: 12, decimals: 3 },
      ],
      attributes: [
        { NAME: "'s-Hertogenbosch", POP: 157486, AREA: 91.23 },
        { NAME: null, POP: null, AREA: -0.5 },
      ],
    });
    const shapefile = (await catalogOf(dir).open('towns'))!;
    expect(await shapefile.readAttributes(0)).toEqual({ NAME: "'s-Hertogenbosch", POP: 157486, AREA: 91.23 });
    expect(await shapefile.readAttributes(1)).toEqual({ NAME: null, POP: null, AREA: -0.5 });
  });

  it('reads no attributes when there is no .dbf', async () => {
    const dir = makeTempDir();
    const base = writeShapefile(dir, 'bare', ShapeType.Point, [{ type: 'Point', coordinates: [0, 0] }]);
    const { rmSync } = await import('node:fs');
    rmSync(`${base}.dbf`);
    const shapefile = (await catalogOf(dir).open('bare'))!;
    expect(await shapefile.readAttributes(0)).toEqual({});
    expect(await shapefile.readGeometry(0, { useCache: false })).toEqual({ type: 'Point', coordinates: [0, 0] });
  });
});
