/**
 * A drawing worker thread: everything that touches a shapefile's bytes or an image's
 * pixels runs here, off the event loop. Each worker keeps its own open shapefiles and
 * feature cache.
 */
import { loadRasterizer } from '../raster/resvg.js';
import { createOpenShapefiles } from '../shapefile/open-shapefiles.ts';
import { serveJobs, workerOptions, type JobContext } from '../workers/serve-jobs.ts';
import type { DrawingContext, DrawingWorkerOptions } from './context.ts';
import { drawImage, type ImageJob } from './draw-image.ts';
import { drawMap, type MapJob } from './draw-map.ts';
import { mapFeatures, type MapFeaturesJob } from './map-features.ts';

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
  <Job>(draw: (job: Job, context: DrawingContext) => ReturnType<typeof drawImage>) =>
  (job: Job, { checkpoint, note }: JobContext) => {
    try {
      return draw(job, { shapefiles, rasterizer, compressionLevel: options.pngCompression, checkpoint });
    } finally {
      for (const problem of problems.splice(0)) note(problem);
    }
  };

serveJobs({
  image: withContext<ImageJob>(drawImage),
  'map-features': withContext<MapFeaturesJob>(mapFeatures),
  map: withContext<MapJob>(drawMap),
});
