/**
 * One image of the images operation, drawn on a worker thread: the listed features read
 * and decoded, mapped into the drawing space, fitted to the image, reduced to its pixels,
 * written as SVG and rasterized, with its hot spots.
 */
import { byteListJson } from '../envelope/byte-list.ts';
import { BadRequestError } from '../errors.ts';
import { simplifyShape } from '../geometry/simplify.ts';
import { shapesBBox } from '../geometry/shape.ts';
import type { HotSpot } from '../hotspots/hotspots.ts';
import type { FeatureRef } from '../params/fid.ts';
import type { Format } from '../params/fields.ts';
import { toDrawingSpace } from '../projection/drawing-space.ts';
import { fitExtent } from '../projection/fit.ts';
import { rasterize } from '../raster/rasterize.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';
import { renderSvg } from '../svg/render-svg.ts';
import type { DrawStyle } from '../svg/style.ts';
import type { Handled } from '../workers/serve-jobs.ts';
import type { DrawingContext, Timed } from './context.ts';
import { checkVertexBound, readFeatures } from './features.ts';
import { hotSpotAttributes, imageHotSpots, type HotSpotRequest } from './image-hot-spots.ts';
import { pixelShapes } from './pixel-shapes.ts';

export interface ImageLimits {
  /** Most vertices (as stored) one request may draw in all its images. */
  maxImageVertices: number;
  maxRings: number;
}

export interface ImageJob extends HotSpotRequest {
  files: ShapefileFiles;
  /** The features this image shows. */
  refs: FeatureRef[];
  /**
   * Every feature the request lists, on its first image only: the request's vertex budget
   * is checked against them all before anything is decoded.
   */
  requestRefs?: FeatureRef[];
  /** CSS pixels: the SVG's size and the hot spots' coordinates. */
  width: number;
  height: number;
  /** Real pixels per CSS pixel (`scale`): the PNG is width × pixelRatio by height × pixelRatio. */
  pixelRatio: number;
  buffer: number;
  style: DrawStyle;
  /** Douglas–Peucker tolerance in the shapefile's units; 0 keeps every vertex. */
  reduceTol: number;
  /** The request's: svg answers the SVG document; json has the worker write the PNG's list of byte values too. */
  format: Format;
  useCache: boolean;
  limits: ImageLimits;
}

export interface DrawnImage extends Timed {
  /** The picture as the format asks for it: a PNG, else (format=svg, format=jpeg) the SVG or JPEG. */
  bytes: Uint8Array;
  /** The PNG as JSON's list of byte values, for format=json (envelope/byte-list.ts). */
  pngJson?: Uint8Array;
  hotSpots: HotSpot[] | null;
}

/** The drawn image as a job's result, its buffers moved rather than copied. */
export function drawnImage(bytes: Uint8Array, hotSpots: HotSpot[] | null, format: Format): Handled {
  const result: Omit<DrawnImage, 'stages'> = format === 'json' ? { bytes, pngJson: byteListJson(bytes), hotSpots } : { bytes, hotSpots };
  return { result, transfer: [bytes, result.pngJson].flatMap((buffer) => (buffer ? [buffer.buffer as ArrayBuffer] : [])) };
}

export function drawImage(job: ImageJob, context: DrawingContext): Handled {
  const { checkpoint, lap } = context;
  const { width, height, pixelRatio, style, limits } = job;
  const shapefile = context.shapefiles.open(job.files, checkpoint);
  const attributes = hotSpotAttributes(job, () => shapefile);
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
  const reduction = { pixelRatio, simplifyPixels: 0, checkpoint };
  const pixels = pixelShapes(drawn, transform, reduction);
  lap('pixels');
  checkpoint();
  const svg = renderSvg({ width, height, style, shapes: pixels, pixelRatio });
  lap('svg');
  checkpoint();
  const image =
    job.format === 'svg'
      ? new TextEncoder().encode(svg)
      : rasterize(context.rasterizer, svg, { width, height, pixelRatio, fonts: [], compressionLevel: context.compressionLevel }, lap);
  const ids = features.map(({ ref }) => ({ fid: ref.text, featureId: ref.parent }));
  const hotSpots = imageHotSpots(job, { ids, shapes: drawn, pixels, transform, reduction, width, height, style }, attributes);
  lap('hotspots');
  return drawnImage(image, hotSpots, job.format);
}
