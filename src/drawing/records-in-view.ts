/**
 * The records of a map without `fid` that reach into its view, found by their own bounding
 * boxes in the file's spatial index (job-context/record-index.ts; docs/decisions.md, "Spatial
 * index"), with the map's budgets (features, vertices, hot spots and their attribute values)
 * counted over them from their record headers, before any record is decoded. Found by the
 * map-in-view step, and again by the drawing step when the files changed on disk in between.
 */
import { basename } from 'node:path';
import { DamagedShapefileError } from '../errors.ts';
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import { contains } from '../geometry/bbox.ts';
import type { BBox } from '../geometry/types.ts';
import { recordIndex } from '../job-context/record-index.ts';
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
  /** The version of the files they were found in (OpenShapefile.version). */
  version: string;
}

/** The records found through the file's index (job-context/record-index.ts), and the budgets checked over them. */
export function recordsInView(shapefile: OpenShapefile, job: InViewQuery, checkpoint: Checkpoint): Uint32Array {
  const { limits } = job;
  const index = recordIndex(shapefile, checkpoint);
  // A view that holds the whole file needs no test; and far outside a projection's area
  // its inverse can answer nonsense, so the view is mapped into the file's units only when
  // it shows part of the file.
  const viewInFile = contains(job.visible, job.fileExtent) ? undefined : mercatorBoxToFile(job.visible, shapefile.crs);
  const [damaged] = index.notFinite;
  // The walk this replaced stopped at whichever came first in file order: a record whose box
  // is not finite, or one record past the features' budget; telling which needs every record
  // in view, so the search stops early only when the file has no such record.
  const found = index.search(viewInFile, { checkpoint, maxRecords: damaged === undefined ? limits.maxMapFeatures : Infinity });
  const pastBudget = found.fids.length > limits.maxMapFeatures;
  if (damaged !== undefined && !(pastBudget && found.fids[limits.maxMapFeatures] < damaged)) {
    throw new DamagedShapefileError(basename(job.files.paths.shp), `record ${damaged} has a bounding box that is not finite.`);
  }
  if (pastBudget) throw tooManyFeatures(found.fids.length, limits.maxMapFeatures, false);
  if (found.vertices > limits.maxMapVertices) throw tooManyVertices(found.vertices, limits.maxMapVertices);
  checkDrawnShapes(found.fids.length, shapefile.shapeType);
  if (job.includeHotSpots) checkHotSpotBudget(found.parts, hotSpotAttributes(job, () => shapefile), limits, FEWER_MAP_FEATURES);
  return found.fids;
}
