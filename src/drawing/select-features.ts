/**
 * The `where=` step of images and maps, on a drawing worker: the features a CQL2 text
 * filter selects (job-context/matching-features.ts), before anything is drawn.
 */
import { matchingFeatures, type Matches, type MatchOptions } from '../job-context/matching-features.ts';
import type { DrawingContext } from '../job-context/context.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';
import type { Handled } from '../workers/serve-jobs.ts';

export interface SelectJob extends MatchOptions {
  files: ShapefileFiles;
  where: string;
}

export function selectFeatures(job: SelectJob, { shapefiles, checkpoint, lap }: DrawingContext): Handled<Matches> {
  const shapefile = shapefiles.open(job.files, checkpoint);
  lap('open');
  const matches = matchingFeatures(shapefile, job.where, job, checkpoint);
  lap('select');
  return { result: matches, transfer: [matches.fids.buffer as ArrayBuffer] };
}
