/**
 * A drawing worker thread: everything that touches a shapefile's bytes or an image's
 * pixels runs here, off the event loop. Each worker keeps its own open shapefiles and
 * feature cache.
 */
import { loadRasterizer } from '../raster/resvg.js';
import { createOpenShapefiles } from '../shapefile/open-shapefiles.ts';
import { startStopwatch } from '../stages.ts';
import { serveJobs, workerOptions, type Handled, type JobContext } from '../workers/serve-jobs.ts';
import { FEATURE_CACHE_HITS, FEATURE_CACHE_MISSES, type DrawingContext, type DrawingWorkerOptions, type Timed } from '../job-context/context.ts';
import { drawImage, type ImageJob } from '../drawing/draw-image.ts';
import { drawMap, type MapJob } from '../drawing/draw-map.ts';
import { describeCollections, featureItem, featureItems, type CollectionsJob, type ItemJob, type ItemsJob } from '../features/feature-items.ts';
import { mapFeatures, type MapFeaturesJob } from '../drawing/map-features.ts';
import { mapInView, type MapInViewJob } from '../drawing/map-in-view.ts';
import { selectFeatures, type SelectJob } from '../drawing/select-features.ts';

const options = workerOptions<DrawingWorkerOptions>();
const problems: string[] = [];
const shapefiles = createOpenShapefiles({
  realRoot: options.realDataDir,
  cacheBytes: options.cacheBytes,
  maxOpen: options.maxOpenShapefiles,
  onProblem: (problem) => void problems.push(problem),
});
// Jobs posted while this loads wait in the port's queue.
const rasterizer = await loadRasterizer();

const withContext =
  <Job>(draw: (job: Job, context: DrawingContext) => Handled | Promise<Handled>) =>
  async (job: Job, { checkpoint, note, count }: JobContext): Promise<Handled> => {
    const watch = startStopwatch();
    const hitsBefore = shapefiles.cache?.hits ?? 0;
    const missesBefore = shapefiles.cache?.misses ?? 0;
    try {
      // A JPEG map awaits its encoder (raster/jpeg.ts); every other job is done when draw() returns.
      const handled = await draw(job, { shapefiles, rasterizer, compressionLevel: options.pngCompression, checkpoint, lap: watch.lap });
      watch.lap('result');
      return { ...handled, result: { ...(handled.result as object), stages: watch.stages } satisfies Timed };
    } finally {
      for (const problem of problems.splice(0)) note(problem);
      // The cache lives on this thread; its lookups reach the service's metrics through the pool.
      count(FEATURE_CACHE_HITS, (shapefiles.cache?.hits ?? 0) - hitsBefore);
      count(FEATURE_CACHE_MISSES, (shapefiles.cache?.misses ?? 0) - missesBefore);
    }
  };

serveJobs({
  image: withContext<ImageJob>(drawImage),
  'map-features': withContext<MapFeaturesJob>(mapFeatures),
  'map-in-view': withContext<MapInViewJob>(mapInView),
  map: withContext<MapJob>(drawMap),
  select: withContext<SelectJob>(selectFeatures),
  collections: withContext<CollectionsJob>(describeCollections),
  items: withContext<ItemsJob>(featureItems),
  item: withContext<ItemJob>(featureItem),
});
