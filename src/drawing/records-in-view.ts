/**
 * The records of a map without `fid` that reach into its view, found by one walk over the
 * record headers (records out of view are skipped by their own bounding box), with the
 * map's budgets (features, vertices, hot spots and their attribute values) counted over
 * them, before any record is decoded. Walked by the map-in-view step, and again by the
 * drawing step when the files changed on disk in between.
 */
import { basename } from 'node:path';
import { DamagedShapefileError } from '../errors.ts';
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import { contains, overlaps } from '../geometry/bbox.ts';
import type { BBox } from '../geometry/types.ts';
import { mercatorBoxToFile } from '../map/reproject.ts';
import type { OpenShapefile, ShapefileFiles } from '../shapefile/file-set.ts';
import { checkHotSpotBudget } from './hot-spot-budget.ts';
import { checkDrawnShapes } from './picture-budget.ts';
import { hotSpotAttributes, type HotSpotRequest } from './image-hot-spots.ts';
import { FEWER_MAP_FEATURES, tooManyFeatures, tooManyVertices, type MapLimits } from './map-budget.ts';

/** What finding the records in a view needs: the map-in-view job, or the map job itself. */
export interface InViewQuery extends HotSpotRequest {
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

/** The walk itself, and the budgets checked over what it found. */
export function recordsInView(shapefile: OpenShapefile, job: InViewQuery, checkpoint: Checkpoint): Uint32Array {
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
    // The walk stops here: the rest of the file need not be read to refuse.
    if (selected.length > limits.maxMapFeatures) throw tooManyFeatures(selected.length, limits.maxMapFeatures, false);
  }
  if (vertices > limits.maxMapVertices) throw tooManyVertices(vertices, limits.maxMapVertices);
  checkDrawnShapes(selected.length, shapefile.shapeType);
  if (job.includeHotSpots) checkHotSpotBudget(parts, hotSpotAttributes(job, () => shapefile), limits, FEWER_MAP_FEATURES);
  return Uint32Array.from(selected);
}

