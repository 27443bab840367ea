/**
 * The classify job end to end (issue 21's test): a file of 100 squares written by GDAL's
 * ogr2ogr, classified on a real drawing worker, the legend's bounds checked against the
 * methods' definitions computed apart from our code (scripts/class-breaks-reference.py:
 * numpy's quantiles, equal intervals, an exact dynamic-programming ckmeans) from the GeoJSON
 * the file was written from, and its colours against d3-scale-chromatic's own arrays.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemeBlues, schemeSet2, schemeYlOrRd } from 'd3-scale-chromatic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobPool, type JobPool } from '../../src/jobs/job-pool.ts';
import type { ClassifyJob } from '../../src/drawing/classify-features.ts';
import type { CategoryClasses, NumericClasses, RuleClasses } from '../../src/thematic/classification.ts';
import { classIndexer } from '../../src/thematic/class-of.ts';
import { legendFor } from '../../src/thematic/legend-for.ts';
import { square } from '../support/fixtures.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

const KINDS = ['forest', 'water', 'urban', 'farm', 'meadow', 'heath', 'dune'];
const GREY = { r: 204, g: 204, b: 204, a: 1 };

/** Feature i: VALUE a permutation of 0–99 (so record order is not value order), KIND one of 7, SCORE a real with every 8th null. */
function properties(i: number) {
  const score = i % 8 === 3 ? null : ((i * 53) % 100) ** 2 / 8;
  return { VALUE: (i * 37) % 100, KIND: KINDS[(i * 3) % 7], SCORE: score };
}

let dir: string;
let geojson: string;
let pool: JobPool;
const files = () => ({ name: 'squares', paths: { shp: join(dir, 'squares.shp'), shx: join(dir, 'squares.shx'), dbf: join(dir, 'squares.dbf') } });

beforeAll(async () => {
  dir = makeTempDir('classify-');
  const features = Array.from({ length: 100 }, (_, i) => ({
    type: 'Feature',
    properties: properties(i),
    // Counter-clockwise, as GeoJSON winds outer rings.
    geometry: { type: 'Polygon', coordinates: [square(i % 10, Math.floor(i / 10), 0.9).reverse()] },
  }));
  geojson = join(dir, 'squares.geojson');
  writeFileSync(geojson, JSON.stringify({ type: 'FeatureCollection', features }));
  execFileSync('ogr2ogr', ['-f', 'ESRI Shapefile', join(dir, 'squares.shp'), geojson]);
  pool = createJobPool({ workers: 1, dataDir: dir, featureCacheBytes: 0, pngCompression: 1, onNote: () => undefined });
  await pool.ready();
});
afterAll(async () => {
  await pool?.close();
  removeTempDirs();
});

async function classify(job: Omit<ClassifyJob, 'files' | 'classes' | 'maxCategories'> & Partial<ClassifyJob>) {
  const { stages: _stages, ...classification } = await pool.run('classify', { files: files(), classes: 5, maxCategories: 24, ...job }, new AbortController().signal);
  return classification;
}

/** The breaks the reference script computes from the GeoJSON. */
function referenceBreaks(field: string, method: string, classes: number): number[] {
  const output = execFileSync('python3', [join(import.meta.dirname, '../../scripts/class-breaks-reference.py'), geojson, field, method, String(classes)], { encoding: 'utf8' });
  return (JSON.parse(output) as { breaks: number[] }).breaks;
}

describe('the classify job, over a file written by ogr2ogr', () => {
  it('gives equal intervals exactly, labelled by the integers each holds, in YlOrRd', async () => {
    const classes = (await classify({ field: 'value', method: 'equal' })) as NumericClasses;
    expect(classes).toMatchObject({ kind: 'numeric', field: 'VALUE', method: 'equal', min: 0, nulls: 0, integers: true });
    // min + k (max - min) / classes, the last the largest value.
    expect(classes.breaks).toEqual([1, 2, 3, 4].map((k) => 0 + k * ((99 - 0) / 5)).concat(99));
    expect(classes.breaks).toEqual(referenceBreaks('VALUE', 'equal', 5));
    const legend = legendFor(classes, { reversePalette: false, nullColor: GREY, culture: 'English' });
    expect(legend.classes.map((entry) => [entry.label, entry.count])).toEqual([
      ['0 – 19', 20],
      ['20 – 39', 20],
      ['40 – 59', 20],
      ['60 – 79', 20],
      ['80 – 99', 20],
    ]);
    expect(legend.classes.map((entry) => entry.color)).toEqual(schemeYlOrRd[5]);
    expect(legend.classes.map((entry) => [entry.min, entry.max])).toEqual(classes.breaks.map((max, i) => [i === 0 ? 0 : classes.breaks[i - 1], max]));
  });

  it.each([
    ['VALUE', 'quantile', 5],
    ['VALUE', 'jenks', 5],
    ['SCORE', 'quantile', 4],
    ['SCORE', 'quantile', 7],
    ['SCORE', 'equal', 6],
    ['SCORE', 'jenks', 4],
    ['SCORE', 'jenks', 6],
  ])('gives %s by %s in %i classes as the reference computes them', async (field, method, classes) => {
    const result = (await classify({ field, method: method as ClassifyJob['method'], classes })) as NumericClasses;
    const reference = referenceBreaks(field, method, classes);
    // Bit for bit, on these values: numpy interpolates past the middle as b - (b - a)(1 - t), not
    // a + (b - a) t, which could differ in the last bit on other data, but does not here.
    expect(result.breaks).toEqual(reference);
  });

  it('counts nulls apart, last in the legend, in nullColor', async () => {
    const classes = (await classify({ field: 'SCORE', method: 'quantile', classes: 4 })) as NumericClasses;
    const nulls = Array.from({ length: 100 }, (_, i) => properties(i).SCORE).filter((score) => score === null).length;
    expect(nulls).toBe(13);
    expect(classes.nulls).toBe(nulls);
    expect(classes.counts.reduce((sum, count) => sum + count, 0)).toBe(100 - nulls);
    const legend = legendFor(classes, { palette: 'blues', reversePalette: false, nullColor: GREY, culture: 'English' });
    expect(legend.classes.map((entry) => entry.color)).toEqual([...schemeBlues[4], '#cccccc']);
    expect(legend.classes.at(-1)).toEqual({ label: 'no value', color: '#cccccc', min: null, max: null, value: null, count: nulls });
    // Every feature's class, from its value, holds that value within its bounds.
    const indexOf = classIndexer(classes);
    for (let i = 0; i < 100; i++) {
      const { SCORE } = properties(i);
      const index = indexOf(SCORE)!;
      const entry = legend.classes[index];
      if (SCORE === null) expect(entry.label).toBe('no value');
      else expect(SCORE <= entry.max! && (index === 0 ? SCORE >= entry.min! : SCORE > entry.min!)).toBe(true);
    }
  });

  it('by default sorts text into categories in order of first appearance, in Set2', async () => {
    const classes = (await classify({ field: 'kind' })) as CategoryClasses;
    const firstAppearance = ['forest', 'farm', 'dune', 'urban', 'heath', 'water', 'meadow'];
    expect(classes).toEqual({ kind: 'categories', field: 'KIND', method: 'categories', values: firstAppearance, counts: firstAppearance.map(countOfKind), other: 0, nulls: 0 });
    const legend = legendFor(classes, { reversePalette: false, nullColor: GREY, culture: 'English' });
    expect(legend.classes.map((entry) => entry.color)).toEqual(schemeSet2.slice(0, 7));
    expect(legend.classes.map((entry) => entry.label)).toEqual(classes.values);
  });

  it('puts categories past maxCategories in "other"', async () => {
    const classes = (await classify({ field: 'KIND', maxCategories: 3 })) as CategoryClasses;
    expect(classes.values).toEqual(['forest', 'farm', 'dune']);
    expect(classes.other).toBe(100 - classes.counts.reduce((sum, count) => sum + count, 0));
    expect(classIndexer(classes)('water')).toBe(3);
  });

  it('by default classifies a number field by quantile', async () => {
    expect(await classify({ field: 'VALUE' })).toMatchObject({ kind: 'numeric', method: 'quantile' });
  });

  it('classifies only the where= selection', async () => {
    const classes = (await classify({ field: 'VALUE', method: 'equal', where: 'VALUE < 50' })) as NumericClasses;
    expect(classes.counts).toEqual([10, 10, 10, 10, 10]);
    expect(classes.breaks.at(-1)).toBe(49);
  });

  it('counts the features each rule styles, the first match winning', async () => {
    const rules = [{ filter: "KIND = 'forest'" }, { filter: 'VALUE < 50' }, { filter: 'SCORE IS NULL' }];
    const counted = (await classify({ rules })) as RuleClasses;
    const expected = [0, 0, 0];
    let unmatched = 0;
    for (let i = 0; i < 100; i++) {
      const { KIND, VALUE, SCORE } = properties(i);
      const rule = KIND === 'forest' ? 0 : VALUE < 50 ? 1 : SCORE === null ? 2 : -1;
      if (rule === -1) unmatched++;
      else expected[rule]++;
    }
    expect(counted).toEqual({ kind: 'rules', counts: expected, unmatched });
    expect(((await classify({ rules: [...rules, {}] })) as RuleClasses).unmatched).toBe(0);
  });

  it('answers 400 listing the fields for an unknown field', async () => {
    await expect(classify({ field: 'POPULATION' })).rejects.toMatchObject({
      status: 400,
      message: "Parameter 'styleBy': shapefile 'squares' has no field 'POPULATION' (its fields: VALUE, KIND, SCORE).",
    });
  });

  it('answers 400 naming field, type and method for a numeric method on text', async () => {
    await expect(classify({ field: 'KIND', method: 'jenks' })).rejects.toMatchObject({
      status: 400,
      message: "Parameter 'classify': method 'jenks' needs a number field, but field 'KIND' of shapefile 'squares' is text; use classify=categories, or a number field.",
    });
  });

  it('answers 400 naming the rule whose filter does not fit the file', async () => {
    await expect(classify({ rules: [{ filter: 'VALUE > 1' }, { filter: "AREA > 'x'" }] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^The theme, rule 2 \(filter 'AREA > 'x''\): Invalid filter: .*AREA/),
    });
  });
});

function countOfKind(kind: string): number {
  return Array.from({ length: 100 }, (_, i) => properties(i).KIND).filter((value) => value === kind).length;
}
