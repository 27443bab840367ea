/**
 * The step of a map without `fid` between its view and its drawing, on a worker thread:
 * the records that reach into the view, found by one walk over the record headers (records
 * out of view are skipped by their own bounding box), with the map's budgets (features,
 * vertices, hot spots and their attribute values) counted over them. It runs before the
 * basemap is drawn and before any record is decoded, so a map past a budget costs neither.
 */
import { basename } from 'node:path';
import { DamagedShapefileError } from '../errors.ts';
import type { Checkpoint } from '../geometry/simplify.ts';
import { contains, overlaps } from '../geometry/bbox.ts';
import type { BBox } from '../geometry/types.ts';
import { mercatorBoxToFile } from '../map/reproject.ts';
import type { OpenShapefile, ShapefileFiles } from '../shapefile/file-set.ts';
import type { Handled } from '../workers/serve-jobs.ts';
import type { DrawingContext } from '../job-context/context.ts';
import { checkHotSpotBudget } from './hot-spot-budget.ts';
import { hotSpotAttributes, type HotSpotRequest } from './image-hot-spots.ts';
import { FEWER_MAP_FEATURES, tooManyFeatures, tooManyVertices, type MapLimits } from './map-features.ts';

export interface MapInViewJob extends HotSpotRequest {
  files: ShapefileFiles;
  /** The file's bounding box in Web Mercator. */
  fileExtent: BBox;
  /** The view in Web Mercator metres, widened by what strokes and symbols reach beyond their geometry. */
  visible: BBox;
  limits: MapLimits;
}

/** The records of one version of the files that reach into a view. */
export interface RecordsInView {
  /** Their ids, in file order. */
  fids: Uint32Array;
  /** The version of the files the walk read (OpenShapefile.version). */
  version: string;
}

export function mapInView(job: MapInViewJob, { shapefiles, checkpoint, lap }: DrawingContext): Handled<RecordsInView> {
  const shapefile = shapefiles.open(job.files, checkpoint);
  lap('open');
  const fids = recordsInView(shapefile, job, checkpoint);
  lap('budget');
  return { result: { fids, version: shapefile.version }, transfer: [fids.buffer as ArrayBuffer] };
}

/** The walk itself, and the budgets checked over what it found. */
export function recordsInView(shapefile: OpenShapefile, job: MapInViewJob, checkpoint: Checkpoint): Uint32Array {
  const { limits } = job;
  const shpFile = basename(job.files.paths.shp);
  // A view that holds the whole file needs no test; and far outside a projection's area
  // its inverse can answer nonsense, so the view is mapped into the file's units only when
  // it shows part of the file.
  const viewInFile = contains(job.visible, job.fileExtent) ? undefined : mercatorBoxToFile(job.visible, shapefile.crs);

  const selected: number[] = [];
  let vertices = 0;
  let parts = 0;
  for (const record of shapefile.walk(checkpoint)) {
    const { bbox } = record;
    if (!bbox || record.pointCount === 0) continue;
    if (![bbox.xmin, bbox.ymin, bbox.xmax, bbox.ymax].every(Number.isFinite)) {
      throw new DamagedShapefileError(shpFile, `record ${record.fid} has a bounding box that is not finite.`);
    }
    if (viewInFile && !overlaps(bbox, viewInFile)) continue;
    selected.push(record.fid);
    vertices += record.pointCount;
    parts += record.partCount;
    if (selected.length > limits.maxMapFeatures) throw tooManyFeatures(selected.length, limits.maxMapFeatures);
  }
  if (vertices > limits.maxMapVertices) throw tooManyVertices(vertices, limits.maxMapVertices);
  if (job.includeHotSpots) checkHotSpotBudget(parts, hotSpotAttributes(job, () => shapefile), limits, FEWER_MAP_FEATURES);
  return Uint32Array.from(selected);
}

