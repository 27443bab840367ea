/**
 * The classes of a styled request are made once (operations/thematic.ts): kept per file
 * version and selection, and shared by the requests that ask for them while they are made,
 * as a choropleth's picture and its legend do. Counted as jobs a real job pool finished.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobPool, type JobPool } from '../../src/jobs/job-pool.ts';
import { classificationCache, legendOf, type ClassesOf } from '../../src/operations/thematic.ts';
import type { ClassColouring } from '../../src/params/thematic.ts';
import { square } from '../support/fixtures.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

let dir: string;
let pool: JobPool;
beforeAll(async () => {
  dir = makeTempDir('thematic-operations-');
  const features = Array.from({ length: 50 }, (_, i) => ({
    type: 'Feature',
    properties: { VALUE: i },
    geometry: { type: 'Polygon', coordinates: [square(i, 0, 1).reverse()] },
  }));
  writeFileSync(join(dir, 'input.geojson'), JSON.stringify({ type: 'FeatureCollection', features }));
  execFileSync('ogr2ogr', ['-f', 'ESRI Shapefile', join(dir, 'values.shp'), join(dir, 'input.geojson')]);
  pool = createJobPool({ workers: 1, dataDir: dir, featureCacheBytes: 0, pngCompression: 1, onNote: () => undefined });
  await pool.ready();
});
afterAll(async () => {
  await pool?.close();
  removeTempDirs();
});

const COLOURING: ClassColouring = { kind: 'classes', field: 'VALUE', method: 'equal', classes: 5, reversePalette: false, nullColor: { r: 204, g: 204, b: 204, a: 1 } };

function classesOf(services: ClassesOf['services'], version: object | undefined, signal = new AbortController().signal): ClassesOf {
  const files = { name: 'values', paths: { shp: join(dir, 'values.shp'), shx: join(dir, 'values.shx'), dbf: join(dir, 'values.dbf') } };
  return { files, version, noCache: false, services, signal };
}

/** Services whose pool counts the jobs it is given. */
function counting() {
  let given = 0;
  const counted = { ...pool, run: ((...args: Parameters<JobPool['run']>) => (given++, pool.run(...args))) as JobPool['run'] };
  return { services: { jobs: counted, classifications: classificationCache(), config: { limits: { maxCategories: 24 } } }, jobs: () => given };
}

describe("a styled request's classes", () => {
  it('are made once for requests that ask at the same time, and kept for those that come after', async () => {
    const services = { jobs: pool, classifications: classificationCache(), config: { limits: { maxCategories: 24 } } };
    const before = pool.stats.finished;
    const legends = await Promise.all(Array.from({ length: 4 }, () => legendOf(COLOURING, 'English', classesOf(services, { shp: [1, 1] }))));
    expect(pool.stats.finished - before).toBe(1);
    expect(new Set(legends.map((legend) => JSON.stringify(legend))).size).toBe(1);
    await legendOf(COLOURING, 'English', classesOf(services, { shp: [1, 1] }));
    expect(pool.stats.finished - before).toBe(1);
    // Another version of the file: made again.
    await legendOf(COLOURING, 'English', classesOf(services, { shp: [1, 2] }));
    expect(pool.stats.finished - before).toBe(2);
  });

  it('are made by a waiting request itself when the one making them is cancelled', async () => {
    const { services, jobs } = counting();
    const leaving = new AbortController();
    const first = legendOf(COLOURING, 'English', classesOf(services, { shp: [1, 1] }, leaving.signal));
    const second = legendOf(COLOURING, 'English', classesOf(services, { shp: [1, 1] }));
    // The second waits for the first's job rather than starting its own.
    expect(jobs()).toBe(1);
    leaving.abort();
    await expect(first).rejects.toThrow();
    expect((await second).classes).toHaveLength(5);
    expect(jobs()).toBe(2);
  });

  it('that fail for what was asked fail alike for the requests that waited, without a job each', async () => {
    const { services, jobs } = counting();
    const asked = Array.from({ length: 4 }, () => legendOf({ ...COLOURING, field: 'NOPE' }, 'English', classesOf(services, { shp: [1, 1] })));
    const outcomes = await Promise.allSettled(asked);
    expect(outcomes.map((outcome) => outcome.status === 'rejected' && (outcome.reason as { status?: number }).status)).toEqual([400, 400, 400, 400]);
    expect(jobs()).toBe(1);
  });
});
