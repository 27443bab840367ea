/**
 * The spatial index of a shapefile's records against a brute-force walk of the same file:
 * GDAL-written files (the fixtures, and polygons ogr2ogr writes here), deleted rows, null
 * shapes, records whose bounding box is not finite; kept per version, and only once built.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { noCheckpoint } from '../../src/cancellation/checkpoint.ts';
import { recordsInView, type InViewQuery } from '../../src/drawing/records-in-view.ts';
import { DamagedShapefileError } from '../../src/errors.ts';
import type { BBox } from '../../src/geometry/types.ts';
import { recordIndex, type RecordIndex } from '../../src/job-context/record-index.ts';
import { createDataFolder } from '../../src/shapefile/data-folder.ts';
import { openShapefile, type OpenShapefile } from '../../src/shapefile/file-set.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { GDAL_FIXTURES } from '../support/gdal-reference.ts';
import { writeRawShapefile } from '../support/raw-shapefile.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { seededRandom } from '../support/seeded-random.ts';

afterAll(removeTempDirs);

async function open(dir: string, name: string): Promise<OpenShapefile> {
  const files = await createDataFolder(dir).find(name);
  return openShapefile(files!, realpathSync(dir), undefined, noCheckpoint)!;
}

/** The records of one walk over the file, as facts. */
function walk(shapefile: OpenShapefile): RecordFacts[] {
  return Array.from(shapefile.walk(noCheckpoint), ({ fid, bbox, pointCount, partCount }) => ({ fid, bbox, pointCount, partCount }));
}

type RecordFacts = { fid: number; bbox: BBox | undefined; pointCount: number; partCount: number };

/** What the walk's records hold in `box` (all records with geometry when undefined), as the index answers. */
function walked(records: RecordFacts[], box: BBox | undefined) {
  const fids: number[] = [];
  let vertices = 0;
  let parts = 0;
  for (const { fid, bbox, pointCount, partCount } of records) {
    if (!bbox || pointCount === 0 || ![bbox.xmin, bbox.ymin, bbox.xmax, bbox.ymax].every(Number.isFinite)) continue;
    if (box && !(bbox.xmin <= box.xmax && bbox.xmax >= box.xmin && bbox.ymin <= box.ymax && bbox.ymax >= box.ymin)) continue;
    fids.push(fid);
    vertices += pointCount;
    parts += partCount;
  }
  return { fids: Uint32Array.from(fids), vertices, parts, complete: true };
}

/** Random boxes over and around `extent`, the extent itself, and its corners as points. */
function boxesOver(extent: BBox, seed: number): BBox[] {
  const next = seededRandom(seed);
  const width = extent.xmax - extent.xmin || 1;
  const height = extent.ymax - extent.ymin || 1;
  const randomBoxes = Array.from({ length: 100 }, () => {
    const xmin = extent.xmin + (next() * 1.2 - 0.1) * width;
    const ymin = extent.ymin + (next() * 1.2 - 0.1) * height;
    return { xmin, ymin, xmax: xmin + next() * next() * width, ymax: ymin + next() * next() * height };
  });
  const corner = { xmin: extent.xmin, ymin: extent.ymin, xmax: extent.xmin, ymax: extent.ymin };
  return [...randomBoxes, extent, corner];
}

function expectAsWalked(shapefile: OpenShapefile, index: RecordIndex, seed: number): void {
  const records = walk(shapefile);
  expect(index.search(undefined, { checkpoint: noCheckpoint })).toEqual(walked(records, undefined));
  for (const box of boxesOver(shapefile.bbox, seed)) {
    expect(index.search(box, { checkpoint: noCheckpoint }), JSON.stringify(box)).toEqual(walked(records, box));
  }
}

/** Polygons ogr2ogr writes from WKT: rectangles of every size, many of them equal, some of zero width or height. */
function writeWithOgr2ogr(dir: string, count: number): void {
  const next = seededRandom(7);
  const rows = Array.from({ length: count }, (_, i) => {
    const x = i % 5 === 0 ? 500 : Math.round(next() * 1000);
    const y = i % 5 === 0 ? 500 : Math.round(next() * 1000);
    const w = i % 7 === 0 ? 0 : Math.round(next() * next() * 200);
    const h = i % 11 === 0 ? 0 : Math.round(next() * next() * 200);
    return `"POLYGON ((${x} ${y},${x} ${y + h},${x + w} ${y + h},${x + w} ${y},${x} ${y}))",${i}`;
  });
  writeFileSync(join(dir, 'rects.csv'), ['wkt,n', ...rows].join('\n'));
  execFileSync('ogr2ogr', ['-f', 'ESRI Shapefile', join(dir, 'rects.shp'), join(dir, 'rects.csv'), '-oo', 'GEOM_POSSIBLE_NAMES=wkt', '-oo', 'KEEP_GEOM_COLUMNS=NO', '-nlt', 'POLYGON']);
}

describe('a search', () => {
  it('finds what a walk finds, with the same points and parts, on the GDAL fixtures', async () => {
    const names = ['ogr_polygon', 'ogr_polygonzm', 'ogr_line', 'ogr_multipoint', 'ogr_point', 'gdal_deleted', 'gdal_rewritten', 'mixed_types', 'empty_shapes'];
    for (const [k, name] of names.entries()) {
      const shapefile = await open(GDAL_FIXTURES, name);
      expectAsWalked(shapefile, recordIndex(shapefile, noCheckpoint), k);
    }
  });

  it('finds what a walk finds on 20,000 polygons ogr2ogr wrote, many equal, some of zero size', async () => {
    const dir = makeTempDir('shapeshot-record-index-');
    writeWithOgr2ogr(dir, 20_000);
    const shapefile = await open(dir, 'rects');
    const index = recordIndex(shapefile, noCheckpoint);
    expect(index.search(undefined, { checkpoint: noCheckpoint }).fids).toHaveLength(20_000);
    expectAsWalked(shapefile, index, 99);
  });

  it('leaves deleted rows out, and lists null shapes apart', async () => {
    const shapefile = await open(GDAL_FIXTURES, 'gdal_deleted');
    const index = recordIndex(shapefile, noCheckpoint);
    expect(Array.from(index.search(undefined, { checkpoint: noCheckpoint }).fids)).toEqual([0, 3]);
    expect(Array.from(index.withoutGeometry)).toEqual([2]);
    expect(index.facts(1)).toBeUndefined();
    expect(index.facts(2)).toBeUndefined();
    expect(index.facts(3)).toEqual({ bbox: { xmin: 1000, ymin: 2000, xmax: 1500, ymax: 2300 }, pointCount: 20, partCount: 4 });
  });

  it('stops past its budgets and says it did', async () => {
    const dir = makeTempDir('shapeshot-record-index-');
    writeWithOgr2ogr(dir, 2_000);
    const index = recordIndex(await open(dir, 'rects'), noCheckpoint);
    const records = index.search(undefined, { checkpoint: noCheckpoint, maxRecords: 10 });
    expect([records.fids.length, records.complete]).toEqual([11, false]);
    const points = index.search({ xmin: 0, ymin: 0, xmax: 1200, ymax: 1200 }, { checkpoint: noCheckpoint, maxVertices: 50 });
    expect([points.fids.length, points.vertices, points.complete]).toEqual([11, 55, false]);
    expect(index.search({ xmin: 0, ymin: 0, xmax: 1200, ymax: 1200 }, { checkpoint: noCheckpoint, maxRecords: 2_000 }).complete).toBe(true);
  });
});

describe('a record whose bounding box is not finite', () => {
  it('is found by no search, listed apart, and refused by a map as the walk refused it', async () => {
    // No GDAL writes such a box: the file is written byte by byte.
    const dir = makeTempDir('shapeshot-record-index-');
    const line = (x: number) => ({ shapeType: ShapeType.PolyLine, xy: Float64Array.of(x, 0, x + 1, 1) });
    writeRawShapefile(join(dir, 'nonfinite'), ShapeType.PolyLine, [
      line(0),
      { ...line(1), bbox: [1, NaN, 2, 1] },
      { ...line(2), bbox: [2, 0, Infinity, 1] },
      line(3),
    ]);
    const shapefile = await open(dir, 'nonfinite');
    const index = recordIndex(shapefile, noCheckpoint);
    expect(Array.from(index.notFinite)).toEqual([1, 2]);
    expect(Array.from(index.search(undefined, { checkpoint: noCheckpoint }).fids)).toEqual([0, 3]);
    expect(Array.from(index.search({ xmin: -Infinity, ymin: -Infinity, xmax: Infinity, ymax: Infinity }, { checkpoint: noCheckpoint }).fids)).toEqual([0, 3]);
    expect(index.facts(2)).toEqual({ bbox: { xmin: 2, ymin: 0, xmax: Infinity, ymax: 1 }, pointCount: 2, partCount: 1 });
    const files = (await createDataFolder(dir).find('nonfinite'))!;
    const world = { xmin: -2e7, ymin: -2e7, xmax: 2e7, ymax: 2e7 };
    const job = { files, fileExtent: world, visible: world, limits: { maxMapFeatures: 100, maxMapVertices: 1000 } } as unknown as InViewQuery;
    expect(() => recordsInView(shapefile, job, noCheckpoint)).toThrow(DamagedShapefileError);
    // …unless more records than the budget come before it, as the walk stopped there first.
    expect(() => recordsInView(shapefile, { ...job, limits: { ...job.limits, maxMapFeatures: 0 } }, noCheckpoint)).toThrow('more than 0 features');
    expect(() => recordsInView(shapefile, job, noCheckpoint)).toThrow("Shapefile file 'nonfinite.shp' is damaged: record 1 has a bounding box that is not finite.");
  });
});

describe('the index of a file', () => {
  it('is built once per version, and kept only once its walk got through', async () => {
    const dir = makeTempDir('shapeshot-record-index-');
    for (const extension of ['shp', 'shx', 'dbf']) copyFileSync(join(GDAL_FIXTURES, `ogr_polygon.${extension}`), join(dir, `kept.${extension}`));
    const walks = { count: 0 };
    const counting = (shapefile: OpenShapefile) =>
      new Proxy(shapefile, {
        get(target, property) {
          if (property === 'walk') walks.count++;
          const value = Reflect.get(target, property);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    const shapefile = counting(await open(dir, 'kept'));
    // A job stopped during the walk leaves nothing behind.
    expect(() =>
      recordIndex(shapefile, () => {
        throw new Error('stopped');
      }),
    ).toThrow('stopped');
    const first = recordIndex(shapefile, noCheckpoint);
    expect(walks.count).toBe(2);
    expect(recordIndex(counting(await open(dir, 'kept')), noCheckpoint)).toBe(first);
    expect(walks.count).toBe(2);
    utimesSync(join(dir, 'kept.shp'), new Date(), new Date(Date.now() + 60_000));
    const changed = counting(await open(dir, 'kept'));
    expect(changed.version).not.toBe(shapefile.version);
    expect(recordIndex(changed, noCheckpoint)).not.toBe(first);
    expect(walks.count).toBe(3);
  });
});
