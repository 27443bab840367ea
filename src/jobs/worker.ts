/**
 * A drawing worker thread: everything that touches a shapefile's bytes or an image's
 * pixels runs here, off the event loop. Each kind of job (job-table.ts) goes to its handler
 * in drawing/ or ogc-jobs/. Each worker keeps its own open shapefiles and feature cache.
 */
import { loadRasterizer } from '../raster/resvg.js';
import { startStopwatch } from '../stages.ts';
import { serveJobs, workerOptions, type Handled, type JobContext, type JobHandler } from '../workers/serve-jobs.ts';
import { FEATURE_CACHE_HITS, FEATURE_CACHE_MISSES, type DrawingContext, type DrawingWorkerOptions } from '../job-context/context.ts';
import { openWorkerShapefiles } from '../job-context/worker-data.ts';
import { drawImage } from '../drawing/draw-image.ts';
import { drawMap } from '../drawing/draw-map.ts';
import { drawLegend } from '../drawing/draw-legend.ts';
import { drawTile } from '../drawing/draw-tile.ts';
import { drawBasemapTile } from '../drawing/draw-basemap-tile.ts';
import { describeCollections, featureItem, featureItems } from '../ogc-jobs/feature-items.ts';
import { mapFeatures } from '../drawing/map-features.ts';
import { mapInView } from '../drawing/map-in-view.ts';
import { selectFeatures } from '../drawing/select-features.ts';
import { classifyFeatures } from '../drawing/classify-features.ts';
import type { JobHandlers, Timed } from './job-table.ts';

const options = workerOptions<DrawingWorkerOptions>();
const problems: string[] = [];
// Jobs posted while these load wait in the port's queue.
const shapefiles = await openWorkerShapefiles(options, (problem) => void problems.push(problem));
const rasterizer = await loadRasterizer();

const handlers: JobHandlers = {
  image: drawImage,
  'map-features': mapFeatures,
  'map-in-view': mapInView,
  map: drawMap,
  tile: drawTile,
  'basemap-tile': drawBasemapTile,
  legend: drawLegend,
  select: selectFeatures,
  classify: classifyFeatures,
  collections: describeCollections,
  items: featureItems,
  item: featureItem,
};

/** A handler given its drawing context, its answer given the job's stages. */
const withContext =
  (handle: (input: never, context: DrawingContext) => Handled<object> | Promise<Handled<object>>): JobHandler<never> =>
  async (input, { checkpoint, note, count, waitFor }: JobContext): Promise<Handled<object & Timed>> => {
    const watch = startStopwatch();
    const hitsBefore = shapefiles.cache?.hits ?? 0;
    const missesBefore = shapefiles.cache?.misses ?? 0;
    try {
      // A JPEG map awaits its encoder (raster/jpeg.ts); every other job is done when draw() returns (on a remote source, in phases).
      const handled = await shapefiles.run(
        (opened) => handle(input, { shapefiles: opened, rasterizer, compressionLevel: options.pngCompression, checkpoint, lap: watch.lap }),
        { checkpoint, waitFor },
      );
      watch.lap('result');
      return { ...handled, result: { ...handled.result, stages: watch.stages } };
    } finally {
      for (const problem of problems.splice(0)) note(problem);
      // The cache lives on this thread; its lookups reach the service's metrics through the pool.
      count(FEATURE_CACHE_HITS, (shapefiles.cache?.hits ?? 0) - hitsBefore);
      count(FEATURE_CACHE_MISSES, (shapefiles.cache?.misses ?? 0) - missesBefore);
    }
  };

serveJobs(Object.fromEntries(Object.entries(handlers).map(([kind, handle]) => [kind, withContext(handle)])));
