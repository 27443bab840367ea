/**
 * One image of the images operation, drawn on a worker thread: the listed features read
 * and decoded, mapped into the drawing space, fitted to the image, reduced to its pixels,
 * written as SVG and rasterized, with its hot spots.
 */
import { byteListJson } from '../envelope/byte-list.ts';
import { BadRequestError } from '../errors.ts';
import { simplifyShape } from '../geometry/simplify.ts';
import { shapesBBox } from '../geometry/shape.ts';
import { fieldNamesIn, withAttributes } from '../hotspots/attributes.ts';
import { hotSpotsFor, type HotSpot } from '../hotspots/hotspots.ts';
import type { FeatureRef } from '../params/fid.ts';
import { toDrawingSpace } from '../projection/drawing-space.ts';
import { fitExtent } from '../projection/fit.ts';
import { toPixels, withinVertexBudget } from '../projection/pixels.ts';
import { rasterize } from '../raster/rasterize.ts';
import type { OpenShapefile, ShapefileFiles } from '../shapefile/file-set.ts';
import { renderSvg } from '../svg/render-svg.ts';
import type { DrawStyle } from '../svg/style.ts';
import type { Handled } from '../workers/serve-jobs.ts';
import { BUDGET_START_TOLERANCE, DRAWN_VERTEX_BUDGET, type DrawingContext, type Timed } from './context.ts';
import { checkVertexBound, readFeatures } from './features.ts';

export interface ImageLimits {
  /** Most vertices (as stored) one request may draw in all its images. */
  maxImageVertices: number;
  maxRings: number;
}

export interface ImageJob {
  files: ShapefileFiles;
  /** The features this image shows. */
  refs: FeatureRef[];
  /**
   * Every feature the request lists, on its first image only: the request's vertex budget
   * is checked against them all before anything is decoded.
   */
  requestRefs?: FeatureRef[];
  width: number;
  height: number;
  buffer: number;
  style: DrawStyle;
  /** Douglas–Peucker tolerance in the shapefile's units; 0 keeps every vertex. */
  reduceTol: number;
  includeHotSpots: boolean;
  /** Attribute values added to each hot spot (names as the request spells them). */
  hotSpotFields?: string[];
  /** The answer is JSON: the worker writes the PNG's list of byte values too. */
  pngAsJson: boolean;
  useCache: boolean;
  limits: ImageLimits;
}

export interface DrawnImage extends Timed {
  png: Uint8Array;
  /** The PNG as JSON's list of byte values, when asked for (envelope/byte-list.ts). */
  pngJson?: Uint8Array;
  hotSpots: HotSpot[] | null;
}

/** Hot spots with the values of `fields` (hotSpotFields=), when the request names any. */
export function hotSpotsWithFields(shapefile: OpenShapefile, hotSpots: HotSpot[], fields: readonly string[] | undefined): HotSpot[] {
  if (!fields?.length) return hotSpots;
  return withAttributes(hotSpots, fieldNamesIn(fields, shapefile.fields, shapefile.name), (fid) => shapefile.readAttributes(fid));
}

/** The drawn image as a job's result, its buffers moved rather than copied. */
export function drawnImage(png: Uint8Array, hotSpots: HotSpot[] | null, pngAsJson: boolean): Handled {
  const result: Omit<DrawnImage, 'stages'> = pngAsJson ? { png, pngJson: byteListJson(png), hotSpots } : { png, hotSpots };
  return { result, transfer: [png, result.pngJson].flatMap((bytes) => (bytes ? [bytes.buffer as ArrayBuffer] : [])) };
}

export function drawImage(job: ImageJob, context: DrawingContext): Handled {
  const { checkpoint, lap } = context;
  const { width, height, style, limits } = job;
  const shapefile = context.shapefiles.open(job.files, checkpoint);
  lap('open');
  if (job.requestRefs) {
    checkVertexBound(shapefile, job.requestRefs, limits.maxImageVertices, (count) =>
      new BadRequestError(
        `The features listed in 'fid' hold up to ${count} vertices; at most ${limits.maxImageVertices} ` +
          '(limits.maxImageVertices) can be drawn in one request. List fewer or simpler features.',
      ),
    );
  }
  lap('budget');
  const features = readFeatures(shapefile, job.refs, { useCache: job.useCache, maxRings: limits.maxRings, checkpoint, lap });
  const drawn = features.map(({ shape }) =>
    toDrawingSpace(job.reduceTol > 0 ? simplifyShape(shape, job.reduceTol, checkpoint) : shape, shapefile.crs.geographic),
  );
  const transform = fitExtent(shapesBBox(drawn)!, width, height, job.buffer);
  lap('fit');
  const pixels = withinVertexBudget(
    drawn.map((shape) => toPixels(shape, transform, checkpoint)),
    DRAWN_VERTEX_BUDGET,
    BUDGET_START_TOLERANCE,
    checkpoint,
  );
  lap('pixels');
  checkpoint();
  const svg = renderSvg({ width, height, style, shapes: pixels });
  lap('svg');
  checkpoint();
  const png = rasterize(context.rasterizer, svg, { width, height, fonts: [], compressionLevel: context.compressionLevel }, lap);
  const hotSpots = job.includeHotSpots
    ? hotSpotsWithFields(
        shapefile,
        hotSpotsFor(
          features.map(({ ref }, i) => ({ fid: ref.text, featureId: ref.parent, pixels: pixels[i] })),
          { width, height, lineWidth: style.lineWidth, pointRadius: style.pointRadius },
          checkpoint,
        ),
        job.hotSpotFields,
      )
    : null;
  lap('hotspots');
  return drawnImage(png, hotSpots, job.pngAsJson);
}
