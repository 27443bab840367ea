import { readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Geometry } from '../../src/geometry/types.ts';
import { createCatalog, type TestCatalog } from '../support/catalog.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { recordLocation, writeShapefile } from './helpers.ts';

afterAll(removeTempDirs);

const catalogs: TestCatalog[] = [];
afterEach(async () => {
  await Promise.all(catalogs.splice(0).map((catalog) => catalog.close()));
});

function catalogOf(dir: string, cacheBytes = 1 << 20): TestCatalog {
  const catalog = createCatalog({ dataDir: dir, cacheBytes });
  catalogs.push(catalog);
  return catalog;
}

const point = (x: number, y = 0): Geometry => ({ type: 'Point', coordinates: [x, y] });

describe('finding shapefiles', () => {
  it('lists the shapefiles as spelled on disk and ignores other files', async () => {
    const dir = makeTempDir();
    writeShapefile(dir, 'Parcels', ShapeType.Point, [point(1)]);
    writeShapefile(dir, 'roads', ShapeType.Point, [point(2)]);
    writeFileSync(join(dir, 'notes.txt'), 'not a shapefile');
    mkdirSync(join(dir, 'folder.shp'));
    expect(await catalogOf(dir).list()).toEqual(['Parcels', 'roads']);
  });

  it('matches names case-insensitively, and finds side files in any case', async () => {
    const dir = makeTempDir();
    const base = writeShapefile(dir, 'Parcels', ShapeType.Point, [point(1)]);
    renameSync(`${base}.shp`, join(dir, 'Parcels.SHP'));
    renameSync(`${base}.dbf`, join(dir, 'PARCELS.DBF'));
    const catalog = catalogOf(dir);
    for (const name of ['parcels', 'PARCELS', 'pArCeLs']) {
      const shapefile = await catalog.open(name);
      expect(shapefile?.name).toBe('Parcels');
      expect(await shapefile!.readAttributes(0)).toEqual({ NAME: 'Parcels 0' });
    }
  });

  it.each([
    '../etc/passwd',
    '..',
    'a/b',
    'sub/inner',
    '/etc/passwd',
    '%2e%2e/secret',
    'secret\0',
    'inner\\..\\secret',
    '',
    'parcels.shp',
  ])('resolves the hostile or foreign name %j to nothing', async (name) => {
    const dir = makeTempDir('shapeshot-outside-');
    writeShapefile(dir, 'secret', ShapeType.Point, [point(9)]);
    const data = join(dir, 'data');
    mkdirSync(data);
    mkdirSync(join(data, 'sub'));
    writeShapefile(join(data, 'sub'), 'inner', ShapeType.Point, [point(8)]);
    writeShapefile(data, 'parcels', ShapeType.Point, [point(1)]);
    expect(await catalogOf(data).open(name)).toBeUndefined();
  });

  it('does not follow a symlink that leads outside the folder', async () => {
    const outside = makeTempDir('shapeshot-outside-');
    const base = writeShapefile(outside, 'secret', ShapeType.Point, [point(9)]);
    const data = makeTempDir();
    for (const extension of ['shp', 'shx', 'dbf']) symlinkSync(`${base}.${extension}`, join(data, `secret.${extension}`));
    writeShapefile(data, 'local', ShapeType.Point, [point(1)]);
    symlinkSync(join(data, 'local.shp'), join(data, 'alias.shp'));
    const catalog = catalogOf(data);
    expect(await catalog.open('secret')).toBeUndefined();
    expect(await catalog.list()).toEqual(['alias', 'local']);
  });
});

describe('files changing on disk', () => {
  it('serves a replaced file fresh, without a restart', async () => {
    const dir = makeTempDir();
    writeShapefile(dir, 'towns', ShapeType.Point, [point(1), point(2)]);
    const catalog = catalogOf(dir);
    const before = (await catalog.open('towns'))!;
    expect(await before.readGeometry(0, { useCache: true })).toEqual(point(1));

    writeShapefile(dir, 'towns', ShapeType.Point, [point(5), point(6), point(7)]);
    const after = (await catalog.open('towns'))!;
    expect(after.featureCount).toBe(3);
    expect(await after.readGeometry(0, { useCache: true })).toEqual(point(5));
    expect(await after.readAttributes(2)).toEqual({ NAME: 'towns 2' });
  });

  it('serves a file replaced by rename (a new inode) fresh', async () => {
    const dir = makeTempDir();
    const staging = makeTempDir();
    writeShapefile(dir, 'towns', ShapeType.Point, [point(1)]);
    const catalog = catalogOf(dir);
    expect(await (await catalog.open('towns'))!.readGeometry(0, { useCache: true })).toEqual(point(1));
    writeShapefile(staging, 'towns', ShapeType.Point, [point(3)]);
    for (const extension of ['shp', 'shx', 'dbf', 'cpg']) {
      renameSync(join(staging, `towns.${extension}`), join(dir, `towns.${extension}`));
    }
    expect(await (await catalog.open('towns'))!.readGeometry(0, { useCache: true })).toEqual(point(3));
  });

  it('keeps reading the version a job opened when the files are replaced by rename meanwhile', async () => {
    const dir = makeTempDir();
    const staging = makeTempDir();
    writeShapefile(dir, 'towns', ShapeType.Point, [point(1), point(2)]);
    const catalog = catalogOf(dir);
    const old = (await catalog.open('towns'))!;
    writeShapefile(staging, 'towns', ShapeType.Point, [point(5)]);
    for (const extension of ['shp', 'shx', 'dbf', 'cpg']) {
      renameSync(join(staging, `towns.${extension}`), join(dir, `towns.${extension}`));
    }
    expect(await old.readGeometry(1, { useCache: false })).toEqual(point(2));
    expect((await catalog.open('towns'))!.featureCount).toBe(1);
  });

  it('finds nothing once a file is removed, and finds a file once added', async () => {
    const dir = makeTempDir();
    const base = writeShapefile(dir, 'towns', ShapeType.Point, [point(1)]);
    const catalog = catalogOf(dir);
    expect(await catalog.open('towns')).toBeDefined();
    for (const extension of ['shp', 'shx', 'dbf', 'cpg']) rmSync(`${base}.${extension}`);
    expect(await catalog.open('towns')).toBeUndefined();
    expect(await catalog.list()).toEqual([]);

    writeShapefile(dir, 'villages', ShapeType.Point, [point(4)]);
    const villages = await catalog.open('Villages');
    expect(await villages!.readGeometry(0, { useCache: true })).toEqual(point(4));
  });

  it('picks up a .shx added later', async () => {
    const dir = makeTempDir();
    const base = writeShapefile(dir, 'towns', ShapeType.Point, [point(1), point(2)]);
    const shx = readFileSync(`${base}.shx`);
    rmSync(`${base}.shx`);
    const catalog = catalogOf(dir);
    expect((await catalog.open('towns'))!.featureCount).toBe(2);
    // A .shx listing only the first record shows the catalog now reads the .shx.
    const shorter = Buffer.from(shx.subarray(0, 108));
    shorter.writeInt32BE(54, 24);
    writeFileSync(`${base}.shx`, shorter);
    expect((await catalog.open('towns'))!.featureCount).toBe(1);
  });
});

describe('the feature cache', () => {
  /**
   * Overwrites record 0's x in place and puts the mtime back, so the file version looks
   * unchanged: only a cache can still answer the old x.
   */
  function changeBehindTheCatalogsBack(base: string, x: number): void {
    const path = `${base}.shp`;
    const { mtime, atime } = statSync(path);
    const bytes = readFileSync(path);
    bytes.writeDoubleLE(x, recordLocation(base, 0).offset + 12);
    writeFileSync(path, bytes);
    utimesSync(path, atime, mtime);
  }

  it('answers repeated reads from memory', async () => {
    const dir = makeTempDir();
    const base = writeShapefile(dir, 'towns', ShapeType.Point, [point(1)]);
    const towns = (await catalogOf(dir).open('towns'))!;
    expect(await towns.readGeometry(0, { useCache: true })).toEqual(point(1));
    changeBehindTheCatalogsBack(base, 99);
    expect(await towns.readGeometry(0, { useCache: true })).toEqual(point(1));
  });

  it('is neither read nor filled with useCache: false', async () => {
    const dir = makeTempDir();
    const base = writeShapefile(dir, 'towns', ShapeType.Point, [point(1)]);
    const towns = (await catalogOf(dir).open('towns'))!;
    expect(await towns.readGeometry(0, { useCache: true })).toEqual(point(1));
    changeBehindTheCatalogsBack(base, 42);
    expect(await towns.readGeometry(0, { useCache: false })).toEqual(point(42));
    changeBehindTheCatalogsBack(base, 43);
    // The useCache: false read above did not replace the cached entry with x = 42.
    expect(await towns.readGeometry(0, { useCache: true })).toEqual(point(1));
  });

  it('is off with cacheBytes 0', async () => {
    const dir = makeTempDir();
    const base = writeShapefile(dir, 'towns', ShapeType.Point, [point(1)]);
    const towns = (await catalogOf(dir, 0).open('towns'))!;
    expect(await towns.readGeometry(0, { useCache: true })).toEqual(point(1));
    changeBehindTheCatalogsBack(base, 7);
    expect(await towns.readGeometry(0, { useCache: true })).toEqual(point(7));
  });
});
