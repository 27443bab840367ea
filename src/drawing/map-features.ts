/**
 * The first step of a map, on a worker thread: what the view is fitted to. The file's
 * extent and, when features are listed, those features read, decoded and reprojected into
 * Web Mercator with their extent, which the drawing step (draw-map.ts) draws. A map without
 * a list goes from here to map-in-view.ts, which finds the records in the view, and then to
 * the drawing step, which reads them. Extents are clamped to the Web Mercator world.
 */
import { basename } from 'node:path';
import { union } from '../geometry/bbox.ts';
import { packedBuffers, shapePacker, type PackedShapes } from '../geometry/packed-shapes.ts';
import type { BBox } from '../geometry/types.ts';
import { bboxToMercator, clampToWorld, mercatorTransform, reprojector } from '../map/reproject.ts';
import { featureList, refsOf, type FeatureList } from '../params/fid.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';
import type { Handled } from '../workers/serve-jobs.ts';
import type { DrawingContext } from '../job-context/context.ts';
import { checkVertexBound, readFeatures } from '../job-context/listed-features.ts';
import { checkHotSpotBudget, listedHotSpotBound } from './hot-spot-budget.ts';
import { checkDrawnShapes } from './picture-budget.ts';
import { hotSpotAttributes, type HotSpotRequest } from './image-hot-spots.ts';
import { FEWER_MAP_FEATURES, tooManyFeatures, tooManyVertices, type MapLimits } from './map-budget.ts';

/** The hot spots the map will carry are budgeted here, for listed features, before they are decoded. */
export interface MapFeaturesJob extends HotSpotRequest {
  files: ShapefileFiles;
  /** undefined: every feature of the file in the view (found by map-in-view.ts, read by the drawing step). */
  refs?: FeatureList;
  useCache: boolean;
  limits: MapLimits;
}

/**
 * A map's features, in Web Mercator metres, packed (packed-shapes.ts): the listed ones as they
 * cross between threads (to the main thread, and on to the drawing step), and those in view
 * as the drawing step keeps them.
 */
export interface ListedFeatures {
  refs: FeatureList;
  /** One per ref. */
  shapes: PackedShapes;
}

export interface MapFeatures {
  /** The file's bounding box in Web Mercator. */
  fileExtent: BBox;
  /** The listed features, and their extent; absent without a list. */
  listed?: { features: ListedFeatures; extent: BBox };
}

export function mapFeatures(job: MapFeaturesJob, { shapefiles, checkpoint, lap }: DrawingContext): Handled<MapFeatures> {
  const shapefile = shapefiles.open(job.files, checkpoint);
  lap('open');
  const toMercator = mercatorTransform(shapefile.crs, shapefile.name);
  const fileExtent = bboxToMercator(shapefile.bbox, toMercator);
  if (!job.refs) return { result: { fileExtent } };

  const { limits } = job;
  const refs = refsOf(job.refs);
  if (refs.length > limits.maxMapFeatures) throw tooManyFeatures(refs.length, limits.maxMapFeatures);
  checkVertexBound(shapefile, refs, limits.maxMapVertices, (count) => tooManyVertices(count, limits.maxMapVertices));
  checkDrawnShapes(refs.length, shapefile.shapeType);
  if (job.includeHotSpots) {
    const attributes = hotSpotAttributes(job, () => shapefile);
    checkHotSpotBudget(listedHotSpotBound(shapefile, refs), attributes, limits, FEWER_MAP_FEATURES);
  }
  lap('budget');
  const selected = readFeatures(shapefile, refs, { useCache: job.useCache, maxRings: limits.maxRings, checkpoint, lap });
  const shpFile = basename(job.files.paths.shp);
  const packer = shapePacker();
  const reproject = reprojector(packer, toMercator, shpFile, checkpoint);
  const boxes = selected.map(({ ref, shape }) => reproject(shape, ref.parent));
  const extent = clampToWorld(boxes.reduce(union));
  lap('reproject');
  const features = { refs: featureList(refs), shapes: packer.finish() };
  return { result: { fileExtent, listed: { features, extent } }, transfer: packedBuffers(features.shapes) };
}
