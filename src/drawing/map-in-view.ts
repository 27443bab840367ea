/**
 * The step of a map without `fid` between its view and its drawing, on a worker thread:
 * the records that reach into the view, with the map's budgets counted over them
 * (records-in-view.ts). It runs before the basemap is drawn and before any record is
 * decoded, so a map past a budget costs neither.
 */
import type { DrawingContext } from '../job-context/context.ts';
import type { Handled } from '../workers/serve-jobs.ts';
import { recordsInView, type InViewQuery, type RecordsInView } from './records-in-view.ts';

export function mapInView(job: InViewQuery, { shapefiles, checkpoint, lap }: DrawingContext): Handled<RecordsInView> {
  const shapefile = shapefiles.open(job.files, checkpoint);
  lap('open');
  const fids = recordsInView(shapefile, job, checkpoint);
  lap('budget');
  return { result: { fids, version: shapefile.version }, transfer: [fids.buffer as ArrayBuffer] };
}
