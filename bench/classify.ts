/**
 * Classifying a field of the million-parcel file (issue 21: under a second cold): the
 * classify job on a job pool started for it, so that each row pays for a fresh worker's
 * opening of the file and its one pass over the `.dbf`, as the first styled request after a
 * change of the file does. The main thread's cache that makes a repeat free is not measured
 * here. The operating system's file cache is warm (run.ts reads the files through first).
 */
import { join } from 'node:path';
import type { ClassifyJob } from '../src/drawing/classify-features.ts';
import { createJobPool } from '../src/jobs/job-pool.ts';


/** Jenks at 12 classes too, the most `classes` takes: its dynamic programming costs in proportion to them. */
const CLASSIFICATIONS: { label: string; job: Pick<ClassifyJob, 'field' | 'method' | 'classes'> }[] = [
  { label: 'ID by quantile (the default for numbers)', job: { field: 'ID', method: 'quantile', classes: 5 } },
  { label: 'ID by jenks', job: { field: 'ID', method: 'jenks', classes: 5 } },
  { label: 'ID by jenks, 12 classes', job: { field: 'ID', method: 'jenks', classes: 12 } },
  { label: 'NAAM by categories (all distinct: 24 + other)', job: { field: 'NAAM', method: 'categories', classes: 5 } },
];

/** One row per classification: its label, the job's milliseconds, its classes ("other" included) and the features they count. */
export async function runClassifyBench(dataDir: string): Promise<string[][]> {
  const path = (extension: string) => join(dataDir, `parcels.${extension}`);
  const files = { name: 'parcels', paths: { shp: path('shp'), shx: path('shx'), dbf: path('dbf'), prj: path('prj'), cpg: path('cpg') } };
  const rows: string[][] = [];
  for (const { label, job } of CLASSIFICATIONS) {
    const pool = createJobPool({ workers: 1, dataDir, featureCacheBytes: 0, pngCompression: 1, onNote: () => undefined });
    try {
      await pool.ready();
      const started = performance.now();
      const classification = await pool.run('classify', { files, ...job, maxCategories: 24 }, new AbortController().signal);
      const ms = performance.now() - started;
      if (classification.kind === 'rules') throw new Error('a field was classified, not rules');
      const other = classification.kind === 'categories' ? classification.other : 0;
      const counted = classification.counts.reduce((sum, count) => sum + count, other + classification.nulls);
      rows.push([label, ms.toFixed(0), String(classification.counts.length + (other > 0 ? 1 : 0)), String(counted)]);
    } finally {
      await pool.close();
    }
  }
  return rows;
}
