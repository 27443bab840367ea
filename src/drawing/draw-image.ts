/**
 * One image of the images operation, drawn on a worker thread: the listed features read
 * and decoded, mapped into the drawing space, fitted to the image, reduced to its pixels,
 * written as SVG and rasterized, with its hot spots; then its part of the answer, written
 * here so that the main thread only puts the parts together.
 */
import type { AnswerRoom } from '../envelope/answer-limit.ts';
import { BadRequestError } from '../errors.ts';
import { simplifyShape } from '../geometry/simplify.ts';
import { shapesBBox } from '../geometry/shape.ts';
import { listLength, refsOf, type FeatureList } from '../params/fid.ts';
import type { Format } from '../params/fields.ts';
import { toDrawingSpace } from '../projection/drawing-space.ts';
import { fitExtent } from '../projection/fit.ts';
import { encodeImage, rasterize } from '../raster/rasterize.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';
import { renderSvg, svgDocument, type SvgImage } from '../svg/render-svg.ts';
import { stampedPixels, stampsPoints } from './point-symbols.ts';
import { packShapes } from '../geometry/packed-shapes.ts';
import type { DrawStyle } from '../svg/style.ts';
import type { Handled } from '../workers/serve-jobs.ts';
import type { Lap } from '../stages.ts';
import type { DrawingContext } from '../job-context/context.ts';
import { checkVertexBound, readFeatures } from '../job-context/listed-features.ts';
import { checkHotSpotBudget, listedHotSpotBound, type HotSpotLimits } from './hot-spot-budget.ts';
import { hotSpotAttributes, imageHotSpots, type HotSpotRequest } from './image-hot-spots.ts';
import { pixelShapes } from './pixel-shapes.ts';
import { drawnImage, type DrawnImage } from './drawn-image.ts';
import { classByFeature, featureStyler, type FeatureStyling } from './feature-styling.ts';
import { pictureOverlay } from './picture-overlay.ts';
import { checkDrawingWork, checkDrawnShapes, drawingWork } from './picture-budget.ts';
import { withClasses } from '../hotspots/classes.ts';

export interface ImageLimits extends HotSpotLimits {
  /** Most vertices (as stored) one request may draw in all its images. */
  maxImageVertices: number;
  maxRings: number;
  maxLabels: number;
  maxDrawingWork: number;
}

export interface ImageJob extends HotSpotRequest {
  files: ShapefileFiles;
  /** The features this image shows. */
  refs: FeatureList;
  /**
   * Every feature the request draws, on its first image only: the request's vertex and hot
   * spot budgets are checked against them all before anything is decoded.
   */
  requestRefs?: FeatureList;
  /** The image's ItemId and FeatureId in the envelope. */
  itemId: number;
  featureId: number;
  /** CSS pixels: the SVG's size and the hot spots' coordinates. */
  width: number;
  height: number;
  /** Real pixels per CSS pixel (`scale`): the PNG is width × pixelRatio by height × pixelRatio. */
  pixelRatio: number;
  buffer: number;
  style: DrawStyle;
  /** Colours, labels and legend by attribute; absent for a plain picture. */
  styling?: FeatureStyling;
  /** Douglas–Peucker tolerance in the shapefile's units; 0 keeps every vertex. */
  reduceTol: number;
  /** The request's: xml and json have the worker write the image's part of the envelope; svg answers the SVG document. */
  format: Format;
  /** How many bytes of the answer this image may take. */
  answer: AnswerRoom;
  useCache: boolean;
  limits: ImageLimits;
}

function svgAnswer(picture: SvgImage, lap: Lap): Uint8Array {
  const svg = renderSvg(picture);
  lap('svg');
  return new TextEncoder().encode(svg);
}

/** The PNG of an image: resvg draws it all, but for points, which are stamped between its background and what lies over them. */
function pictureImage({ rasterizer, compressionLevel, checkpoint, lap }: DrawingContext, picture: SvgImage): Uint8Array {
  const { width, height, pixelRatio } = picture;
  const options = { width, height, pixelRatio, fonts: [] };
  if (!stampsPoints(picture.shapes)) {
    const svg = renderSvg(picture);
    lap('svg');
    checkpoint();
    return rasterize(rasterizer, svg, { ...options, compressionLevel }, lap);
  }
  const stamped = {
    below: renderSvg({ ...picture, shapes: [], overlay: undefined }),
    above: picture.overlay && svgDocument(width, height, picture.overlay),
    points: packShapes(picture.shapes),
    ...picture,
  };
  const pixels = stampedPixels(rasterizer, stamped, options, checkpoint, lap);
  return encodeImage(pixels, { width: width * pixelRatio, height: height * pixelRatio, compressionLevel }, lap);
}

/** What an images request can change to get fewer hot spots. */
const FEWER_IMAGE_FEATURES = "List fewer ids in 'fid' or narrow the selection in 'where'";

export function drawImage(job: ImageJob, context: DrawingContext): Handled<DrawnImage> {
  const { checkpoint, lap } = context;
  const { width, height, pixelRatio, style, limits } = job;
  const shapefile = context.shapefiles.open(job.files, checkpoint);
  const attributes = hotSpotAttributes(job, () => shapefile);
  // What the styling names in the file is checked before anything is read.
  const styler = job.styling && featureStyler(shapefile, job.styling);
  lap('open');
  if (job.requestRefs) {
    const requestRefs = refsOf(job.requestRefs);
    checkVertexBound(shapefile, requestRefs, limits.maxImageVertices, (count) =>
      new BadRequestError(
        `The features listed in 'fid' hold up to ${count} vertices; at most ${limits.maxImageVertices} ` +
          '(limits.maxImageVertices) can be drawn in one request. List fewer or simpler features.',
      ),
    );
    if (job.includeHotSpots) checkHotSpotBudget(listedHotSpotBound(shapefile, requestRefs), attributes, limits, FEWER_IMAGE_FEATURES);
    // Each image draws at most the request's features, and one draws them all when singleImage=1.
    checkDrawnShapes(listLength(job.refs), shapefile.shapeType);
  }
  lap('budget');
  const features = readFeatures(shapefile, refsOf(job.refs), { useCache: job.useCache, maxRings: limits.maxRings, checkpoint, lap });
  const drawn = features.map(({ shape }) =>
    toDrawingSpace(job.reduceTol > 0 ? simplifyShape(shape, job.reduceTol, checkpoint) : shape, shapefile.crs.geographic),
  );
  const transform = fitExtent(shapesBBox(drawn)!, width, height, job.buffer);
  lap('fit');
  const reduction = { pixelRatio, simplifyPixels: 0, checkpoint };
  const pixels = pixelShapes(drawn, transform, reduction);
  lap('pixels');
  checkpoint();
  const featureIds = features.map(({ ref }) => ref.parent);
  const styled = styler?.(featureIds, checkpoint);
  if (job.format !== 'svg') checkDrawingWork(drawingWork(pixels, style, pixelRatio, styled?.paints), limits.maxDrawingWork);
  const overlay =
    job.styling && styled && pictureOverlay(job.styling, styled, { width, height, pixels, pointRadius: style.pointRadius, maxLabels: limits.maxLabels, checkpoint });
  lap('styling');
  const picture = { width, height, style, shapes: pixels, pixelRatio, paints: styled?.paints, overlay: overlay?.svg };
  const image = job.format === 'svg' ? svgAnswer(picture, lap) : pictureImage(context, picture);
  const ids = features.map(({ ref }) => ({ fid: ref.text, featureId: ref.parent }));
  const plainHotSpots = imageHotSpots(job, { ids, shapes: drawn, pixels, transform, reduction, width, height, style }, attributes);
  const hotSpots = plainHotSpots && job.styling?.colouring && styled ? withClasses(plainHotSpots, classByFeature(featureIds, styled)) : plainHotSpots;
  lap('hotspots');
  return drawnImage(image, hotSpots, job, lap);
}
