import { rmSync, truncateSync, statSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DamagedShapefileError } from '../../src/errors.ts';
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

function catalogOf(dir: string): TestCatalog {
  const catalog = createCatalog({ dataDir: dir, cacheBytes: 1 << 20 });
  catalogs.push(catalog);
  return catalog;
}

const line = (i: number): Geometry => ({ type: 'LineString', coordinates: [[i, 0], [i, 10], [i + 1, 20]] });
const LINES = Array.from({ length: 6 }, (_, i) => line(i));

/** A data folder with the shapefile 'roads' (six lines) and a healthy neighbour 'rivers'. */
function folderWithRoads(): { dir: string; base: string } {
  const dir = makeTempDir();
  const base = writeShapefile(dir, 'roads', ShapeType.PolyLine, LINES);
  writeShapefile(dir, 'rivers', ShapeType.PolyLine, [line(100)]);
  return { dir, base };
}

async function expectDamage(read: Promise<unknown>, file: string, fault: RegExp): Promise<void> {
  const error = await read.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DamagedShapefileError);
  expect((error as DamagedShapefileError).file).toBe(file);
  expect((error as Error).message).toMatch(fault);
}

/** Every other record and file still reads after the damage. */
async function expectOthersReadable(catalog: TestCatalog, healthyFids: number[]): Promise<void> {
  const roads = (await catalog.open('roads'))!;
  for (const fid of healthyFids) expect(await roads.readGeometry(fid, { useCache: true })).toEqual(LINES[fid]);
  const rivers = (await catalog.open('rivers'))!;
  expect(await rivers.readGeometry(0, { useCache: true })).toEqual(line(100));
}

describe('random access', () => {
  it('reads record k without touching the bytes of any other record', async () => {
    const { dir, base } = folderWithRoads();
    editFile(`${base}.shp`, (bytes) => {
      for (const fid of [0, 1, 2, 4, 5]) {
        const { offset, contentBytes } = recordLocation(base, fid);
        bytes.fill(0xee, offset, offset + 8 + contentBytes);
      }
      return bytes;
    });
    editFile(`${base}.shx`, (bytes) => {
      for (const fid of [0, 1, 2, 4, 5]) bytes.fill(0xee, 100 + 8 * fid, 108 + 8 * fid);
      return bytes;
    });
    const roads = (await catalogOf(dir).open('roads'))!;
    expect(await roads.readGeometry(3, { useCache: false })).toEqual(LINES[3]);
    expect(await roads.readAttributes(3)).toEqual({ NAME: 'roads 3' });
  });
});

describe('a missing .shx', () => {
  it('is rebuilt by scanning the .shp', async () => {
    const { dir, base } = folderWithRoads();
    rmSync(`${base}.shx`);
    const roads = (await catalogOf(dir).open('roads'))!;
    expect(roads.featureCount).toBe(6);
    for (let fid = 0; fid < 6; fid++) expect(await roads.readGeometry(fid, { useCache: false })).toEqual(LINES[fid]);
  });

  it('with a record cut off at the end: that record is damaged, the others read', async () => {
    const { dir, base } = folderWithRoads();
    rmSync(`${base}.shx`);
    truncateSync(`${base}.shp`, statSync(`${base}.shp`).size - 10);
    const catalog = catalogOf(dir);
    const roads = (await catalog.open('roads'))!;
    await expectDamage(roads.readGeometry(5, { useCache: true }), 'roads.shp', /record 5 .* runs past the end/);
    await expectOthersReadable(catalog, [0, 1, 2, 3, 4]);
  });

  it('with a broken record header: records before it read, the rest are reported damaged', async () => {
    const { dir, base } = folderWithRoads();
    const third = recordLocation(base, 3);
    rmSync(`${base}.shx`);
    editFile(`${base}.shp`, (bytes) => {
      bytes.writeInt32BE(-7, third.offset + 4);
      return bytes;
    });
    const catalog = catalogOf(dir);
    const roads = (await catalog.open('roads'))!;
    expect(roads.featureCount).toBe(3);
    await expectDamage(roads.readGeometry(4, { useCache: false }), 'roads.shp', /record 3 .* declares a length of -14 bytes/);
    await expectOthersReadable(catalog, [0, 1, 2]);
  });
});

describe('damage', () => {
  it('a truncated .shp: the cut record is damaged, the others read', async () => {
    const { dir, base } = folderWithRoads();
    truncateSync(`${base}.shp`, statSync(`${base}.shp`).size - 10);
    const catalog = catalogOf(dir);
    const roads = (await catalog.open('roads'))!;
    await expectDamage(roads.readGeometry(5, { useCache: true }), 'roads.shp', /record 5 .* runs past the end of the \d+-byte file/);
    await expectOthersReadable(catalog, [0, 1, 2, 3, 4]);
  });

  it('a .shx entry pointing past the end of the .shp', async () => {
    const { dir, base } = folderWithRoads();
    editFile(`${base}.shx`, (bytes) => {
      bytes.writeInt32BE(50_000_000, 100 + 8 * 2);
      return bytes;
    });
    const catalog = catalogOf(dir);
    const roads = (await catalog.open('roads'))!;
    await expectDamage(roads.readGeometry(2, { useCache: true }), 'roads.shp', /record 2 .* runs past the end/);
    await expectOthersReadable(catalog, [0, 1, 3, 4, 5]);
  });

  it('a .shx entry that disagrees with the .shp record it points to', async () => {
    const { dir, base } = folderWithRoads();
    editFile(`${base}.shx`, (bytes) => {
      bytes.writeInt32BE(bytes.readInt32BE(100 + 8 * 1 + 4) - 4, 100 + 8 * 1 + 4);
      return bytes;
    });
    const catalog = catalogOf(dir);
    const roads = (await catalog.open('roads'))!;
    await expectDamage(roads.readGeometry(1, { useCache: true }), 'roads.shx', /record 1 .* but the \.shp record there says/);
    await expectOthersReadable(catalog, [0, 2, 3, 4, 5]);
  });

  it('a record whose point count runs past its length', async () => {
    const { dir, base } = folderWithRoads();
    editFile(`${base}.shp`, (bytes) => {
      bytes.writeInt32LE(1000, recordLocation(base, 4).offset + 8 + 40);
      return bytes;
    });
    const catalog = catalogOf(dir);
    const roads = (await catalog.open('roads'))!;
    await expectDamage(roads.readGeometry(4, { useCache: true }), 'roads.shp', /record 4 is cut off: it needs 16048 bytes/);
    await expectOthersReadable(catalog, [0, 1, 2, 3, 5]);
  });

  it('a file that is not a shapefile fails to open, naming it; the other files still serve', async () => {
    const { dir, base } = folderWithRoads();
    writeFileSync(`${base}.shp`, 'This is not a shapefile at all, but it is long enough to have a header.'.repeat(3));
    const catalog = catalogOf(dir);
    await expectDamage(catalog.open('roads'), 'roads.shp', /not a shapefile \(file code \d+ and version \d+/);
    const rivers = (await catalog.open('rivers'))!;
    expect(await rivers.readGeometry(0, { useCache: true })).toEqual(line(100));
  });

  it('a .shp shorter than its header', async () => {
    const { dir, base } = folderWithRoads();
    truncateSync(`${base}.shp`, 40);
    await expectDamage(catalogOf(dir).open('roads'), 'roads.shp', /40 bytes long, shorter than the 100-byte header/);
  });

  it('a .shx whose shape type disagrees with the .shp', async () => {
    const { dir, base } = folderWithRoads();
    editFile(`${base}.shx`, (bytes) => {
      bytes.writeInt32LE(ShapeType.Polygon, 32);
      return bytes;
    });
    await expectDamage(catalogOf(dir).open('roads'), 'roads.shx', /shape type Polygon, the \.shp's says PolyLine/);
  });

  it('a damaged .dbf fails attribute reads only', async () => {
    const { dir, base } = folderWithRoads();
    editFile(`${base}.dbf`, (bytes) => {
      bytes.writeUInt16LE(2, 10);
      return bytes;
    });
    const roads = (await catalogOf(dir).open('roads'))!;
    await expectDamage(roads.readAttributes(0), 'roads.dbf', /fields need \d+ bytes a row, but a row is 2 bytes/);
    expect(await roads.readGeometry(0, { useCache: true })).toEqual(LINES[0]);
  });

  it('a .dbf with fewer rows than the .shp has records', async () => {
    const { dir, base } = folderWithRoads();
    editFile(`${base}.dbf`, (bytes) => {
      bytes.writeUInt32LE(2, 4);
      return bytes;
    });
    const roads = (await catalogOf(dir).open('roads'))!;
    expect(await roads.readAttributes(1)).toEqual({ NAME: 'roads 1' });
    await expectDamage(roads.readAttributes(4), 'roads.dbf', /it has 2 rows, so feature 4 has no attributes/);
  });

  it('is not remembered once the file is repaired', async () => {
    const { dir, base } = folderWithRoads();
    truncateSync(`${base}.shp`, statSync(`${base}.shp`).size - 10);
    const catalog = catalogOf(dir);
    const damaged = (await catalog.open('roads'))!;
    await expectDamage(damaged.readGeometry(5, { useCache: true }), 'roads.shp', /runs past the end/);
    writeShapefile(dir, 'roads', ShapeType.PolyLine, LINES);
    const repaired = (await catalog.open('roads'))!;
    expect(await repaired.readGeometry(5, { useCache: true })).toEqual(LINES[5]);
  });
});
