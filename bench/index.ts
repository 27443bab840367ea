/**
 * The spatial index of the million-parcel file (issue 32: built in under 2 s, off the event
 * loop): the map-in-view job on a job pool of one worker started for it, so that its first
 * job builds the worker's index (one walk over the 1.7 GB of records, then the tree) and the
 * later ones only search it. Before it, the same two parts of the build on this thread, each
 * timed alone: the walk over the records, and the tree over their boxes. The operating
 * system's file cache is warm (run.ts reads the files through first). docs/decisions.md,
 * "Spatial index".
 */
import { join, resolve } from 'node:path';
import { noCheckpoint, StepPacer } from '../src/cancellation/checkpoint.ts';
import type { MapLimits } from '../src/drawing/map-budget.ts';
import type { InViewQuery } from '../src/drawing/records-in-view.ts';
import type { BBox } from '../src/geometry/types.ts';
import { createJobPool } from '../src/jobs/job-pool.ts';
import { bboxToMercator, mercatorTransform } from '../src/map/reproject.ts';
import { openShapefile, type OpenShapefile } from '../src/shapefile/file-set.ts';
import { BoxTree } from '../src/structures/box-tree.ts';

/** Views of 640 × 480 px at zoom 15 (some 3 m a pixel): a map of a few parcels, or a few tiles' worth. */
const VIEW_METRES = { width: 640 * 3, height: 480 * 3 };
const WARM_JOBS = 200;
/** The map limits' defaults (docs/configuration.md). */
const LIMITS: MapLimits = { maxMapFeatures: 100_000, maxMapVertices: 5_000_000, maxRings: 100_000, maxHotSpots: 10_000, maxHotSpotAttributeBytes: 8 << 20 };

/** Rows: what was measured, and its milliseconds. */
export async function runIndexBench(dataDir: string): Promise<string[][]> {
  const path = (extension: string) => join(dataDir, `parcels.${extension}`);
  const files = { name: 'parcels', paths: { shp: path('shp'), shx: path('shx'), dbf: path('dbf'), prj: path('prj'), cpg: path('cpg') } };
  const shapefile = openShapefile(files, resolve(dataDir), undefined, () => undefined)!;
  const fileExtent = bboxToMercator(shapefile.bbox, mercatorTransform(shapefile.crs, 'parcels.shp'));
  const parts = timeBuildParts(shapefile);
  shapefile.close();
  const view = (fraction: number): BBox => {
    const x = fileExtent.xmin + fraction * (fileExtent.xmax - fileExtent.xmin);
    const y = fileExtent.ymin + fraction * (fileExtent.ymax - fileExtent.ymin);
    return { xmin: x, ymin: y, xmax: x + VIEW_METRES.width, ymax: y + VIEW_METRES.height };
  };
  const job = (visible: BBox): InViewQuery => ({ files, fileExtent, visible, limits: LIMITS, includeHotSpots: false });
  const pool = createJobPool({ workers: 1, dataDir, featureCacheBytes: 0, pngCompression: 1, onNote: () => undefined });
  const signal = new AbortController().signal;
  try {
    await pool.ready();
    let started = performance.now();
    const first = await pool.run('map-in-view', job(view(0.5)), signal);
    const cold = performance.now() - started;
    const warm: number[] = [];
    let found = 0;
    for (let i = 0; i < WARM_JOBS; i++) {
      started = performance.now();
      found += (await pool.run('map-in-view', job(view(Math.random())), signal)).fids.length;
      warm.push(performance.now() - started);
    }
    warm.sort((a, b) => a - b);
    return [
      [`this thread: the walk over the records' headers (${parts.placed} with a finite box)`, parts.walk.toFixed(0)],
      ['this thread: the tree over their boxes', parts.tree.toFixed(0)],
      [`first job: open, build the index (${shapefile.featureCount} records), search one view (${first.fids.length} found)`, cold.toFixed(0)],
      [`later jobs: search a view (${(found / WARM_JOBS).toFixed(1)} found on average), p50`, warm[WARM_JOBS >> 1].toFixed(2)],
      ['later jobs, p99', warm[Math.floor(WARM_JOBS * 0.99)].toFixed(2)],
    ];
  } finally {
    await pool.close();
  }
}

/** The two parts of an index's build, timed apart: one walk gathering the boxes, as record-index.ts's does, then the tree over them. */
function timeBuildParts(shapefile: OpenShapefile): { walk: number; tree: number; placed: number } {
  let started = performance.now();
  const boxes = new Float64Array(4 * shapefile.featureCount);
  let placed = 0;
  for (const { bbox, pointCount } of shapefile.walk(noCheckpoint)) {
    if (!bbox || pointCount === 0) continue;
    const { xmin, ymin, xmax, ymax } = bbox;
    if (!(Number.isFinite(xmin) && Number.isFinite(ymin) && Number.isFinite(xmax) && Number.isFinite(ymax))) continue;
    boxes[4 * placed] = xmin;
    boxes[4 * placed + 1] = ymin;
    boxes[4 * placed + 2] = xmax;
    boxes[4 * placed + 3] = ymax;
    placed++;
  }
  const walk = performance.now() - started;
  started = performance.now();
  new BoxTree(boxes.subarray(0, 4 * placed), new StepPacer(noCheckpoint));
  return { walk, tree: performance.now() - started, placed };
}
