/**
 * The last step of a map, on a worker thread: the features that reach into the view
 * (the listed ones, or the records mapInView() found in it, decoded here), simplified
 * to the pixel, drawn over the basemap the provider made, rasterized, with hot spots, and
 * written as its part of the answer.
 */
import { basename } from 'node:path';
import type { AnswerRoom } from '../envelope/answer-limit.ts';
import type { Basemap, PlacedImage } from '../plugin-contract/basemap-plugin.ts';
import { overlaps } from '../geometry/bbox.ts';
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import { shapesBBox } from '../geometry/shape.ts';
import type { BBox } from '../geometry/types.ts';
import { mercatorTransform, reprojectShape, type ToMercator } from '../map/reproject.ts';
import type { PixelTransform } from '../projection/fit.ts';
import type { Format } from '../params/fields.ts';
import { drawOver, layOver } from '../raster/composite.ts';
import { encodeJpeg } from '../raster/jpeg.ts';
import { encodeImage, renderPixels } from '../raster/rasterize.ts';
import type { OpenShapefile, ShapefileFiles } from '../shapefile/file-set.ts';
import type { DrawStyle } from '../svg/style.ts';
import type { Handled } from '../workers/serve-jobs.ts';
import { attributionStrip } from './attribution-strip.ts';
import type { DrawingContext } from '../job-context/context.ts';
import { drawnImage, type DrawnImage } from './drawn-image.ts';
import { hotSpotAttributes, imageHotSpots, type HotSpotRequest } from './image-hot-spots.ts';
import { recordsInView, type RecordsInView } from './records-in-view.ts';
import { ATTRIBUTION_STRIP_HEIGHT, renderMapSvg, type MapSvg } from './map-svg.ts';
import { stampedPixels, stampsPoints } from './point-symbols.ts';
import { pixelShapes } from './pixel-shapes.ts';
import { tilesFromCache, tilePixels } from './tile-pixels.ts';
import type { MapLimits } from './map-budget.ts';
import { unpackFeatures, type ListedFeatures, type MapFeature } from './map-features.ts';
import { classByFeature, featureStyler, type FeatureStyling } from './feature-styling.ts';
import { pictureOverlay } from './picture-overlay.ts';
import { withClasses } from '../hotspots/classes.ts';

export interface MapJob extends HotSpotRequest {
  files: ShapefileFiles;
  /** What the map shows: the listed features, from mapFeatures(), or every record in view, which mapInView() found. */
  features: ListedFeatures | RecordsInView;
  /** The file's bounding box in Web Mercator. */
  fileExtent: BBox;
  /** From Web Mercator metres to the image's pixels. */
  transform: PixelTransform;
  /** The view in Web Mercator metres, widened by what strokes and symbols reach beyond their geometry. */
  visible: BBox;
  /** CSS pixels: the view's size, in which the basemap's layers and the hot spots are placed. */
  width: number;
  height: number;
  /** Real pixels per CSS pixel (`scale`, the view's devicePixelRatio). */
  pixelRatio: number;
  style: DrawStyle;
  /** Colours, labels and legend by attribute; absent for a plain map. */
  styling?: FeatureStyling;
  basemap: Basemap;
  /** The request's: xml and json have the worker write the map's part of the envelope; jpeg answers a JPEG. */
  format: Format;
  /** The map's ItemId and FeatureId in the envelope. */
  itemId: number;
  featureId: number;
  /** How many bytes of the answer the map may take. */
  answer: AnswerRoom;
  /** Of a JPEG, 1–100. */
  jpegQuality: number;
  useCache: boolean;
  limits: MapLimits & { maxLabels: number };
}

/** Vertices closer together than this (real pixels) are one vertex on the map. */
const SIMPLIFY_PIXELS = 0.5;

export async function drawMap(job: MapJob, context: DrawingContext): Promise<Handled<DrawnImage>> {
  const { checkpoint, lap } = context;
  const { width, height, pixelRatio, style, transform } = job;
  const attributes = hotSpotAttributes(job, () => context.shapefiles.open(job.files, checkpoint));
  // What the styling names in the file is checked before anything is decoded.
  const styler = job.styling && featureStyler(context.shapefiles.open(job.files, checkpoint), job.styling);
  const inView =
    'shapes' in job.features
      ? unpackFeatures(job.features).filter((feature) => overlaps(shapesBBox([feature.shape]), job.visible))
      : decodeInView(context.shapefiles.open(job.files, checkpoint), job, job.features, checkpoint);
  lap('features');
  const shapes = inView.map((feature) => feature.shape);
  const reduction = { pixelRatio, simplifyPixels: SIMPLIFY_PIXELS, checkpoint };
  const pixels = pixelShapes(shapes, transform, reduction);
  lap('pixels');
  checkpoint();
  const attributionText = job.basemap.attribution.trim();
  const attribution = attributionText ? attributionStrip(context, attributionText, width, pixelRatio) : undefined;
  const tiles = job.basemap.below.images ?? [];
  const composite = tiles.length > 0 && tilesFromCache(tiles);
  // Raster tiles, decoded once and kept, are laid down here; resvg draws the rest over them.
  const basemap = composite ? { ...job.basemap, below: { svg: job.basemap.below.svg } } : job.basemap;
  const featureIds = inView.map((feature) => feature.featureId);
  const styled = styler?.(featureIds, checkpoint);
  const picture = { width, height, pixels, pointRadius: style.pointRadius, maxLabels: job.limits.maxLabels, checkpoint };
  const overlay = job.styling && styled && pictureOverlay(job.styling, styled, { ...picture, ...(attribution ? { bottomInset: ATTRIBUTION_STRIP_HEIGHT } : {}) });
  lap('styling');
  const mapSvg: MapSvg = { width, height, pixelRatio, basemap, shapes: pixels, style, attribution, paints: styled?.paints, overlay };
  const canvas = (stampsPoints(pixels) ? stampedMapPixels : mapPixels)(context, mapSvg, composite ? tiles : []);
  checkpoint();
  const real = { width: width * pixelRatio, height: height * pixelRatio };
  let image: Uint8Array;
  if (job.format === 'jpeg') {
    image = await encodeJpeg(canvas, real.width, real.height, job.jpegQuality);
    lap('jpeg');
    checkpoint();
  } else {
    image = encodeImage(canvas, { ...real, compressionLevel: context.compressionLevel }, lap);
  }
  const plainHotSpots = imageHotSpots(job, { ids: inView, shapes, pixels, transform, reduction, width, height, style }, attributes);
  const hotSpots = plainHotSpots && job.styling?.colouring && styled ? withClasses(plainHotSpots, classByFeature(featureIds, styled)) : plainHotSpots;
  lap('hotspots');
  return drawnImage(image, hotSpots, job, lap);
}

/**
 * The map's premultiplied pixels: resvg's drawing of its SVG, laid over `tiles` (decoded
 * once and kept, tile-pixels.ts), each at its CSS place times the pixel ratio.
 */
function mapPixels(context: DrawingContext, picture: MapSvg, tiles: readonly PlacedImage[]): Uint8Array {
  const { svg, fonts } = renderMapSvg(picture);
  context.lap('svg');
  context.checkpoint();
  const { width, height, pixelRatio } = picture;
  const drawn = renderPixels(context.rasterizer, svg, { width, height, pixelRatio, fonts }, context.lap);
  if (tiles.length === 0) return drawn;
  const [realWidth, realHeight] = [width * pixelRatio, height * pixelRatio];
  const canvas = new Uint8Array(realWidth * realHeight * 4);
  for (const tile of tiles) {
    const pixels = tilePixels(context.rasterizer, tile, pixelRatio);
    drawOver(canvas, realWidth, realHeight, pixels, tile.width * pixelRatio, tile.height * pixelRatio, tile.x * pixelRatio, tile.y * pixelRatio);
  }
  context.lap('tiles');
  layOver(drawn, canvas);
  context.lap('composite');
  return canvas;
}

/**
 * A map of points: the basemap's lower layer as mapPixels() draws it, the points stamped
 * over it (point-symbols.ts), then the basemap's upper layer, labels, legend and attribution.
 */
function stampedMapPixels(context: DrawingContext, picture: MapSvg, tiles: readonly PlacedImage[]): Uint8Array {
  const { width, height, pixelRatio, basemap } = picture;
  const nothing = { shapes: [], overlay: undefined, attribution: undefined };
  const below: MapSvg = { ...picture, ...nothing, basemap: { ...basemap, above: undefined } };
  const { svg: above, fonts } = renderMapSvg({ ...picture, shapes: [], basemap: { ...basemap, below: {} } });
  const stamped = { below: renderMapSvg(below).svg, above, shapes: picture.shapes, style: picture.style, paints: picture.paints };
  const options = { width, height, pixelRatio, fonts };
  return stampedPixels(context.rasterizer, stamped, options, context.checkpoint, context.lap, () => mapPixels(context, below, tiles));
}

/**
 * The features of a map without `fid` that reach into the view, decoded in file order: the
 * records mapInView() found (and budgeted) before the basemap was drawn, or, when the
 * files changed on disk since, those a new walk finds, budgets and all.
 */
function decodeInView(shapefile: OpenShapefile, job: MapJob, inView: RecordsInView, checkpoint: Checkpoint): MapFeature[] {
  const { limits } = job;
  const shpFile = basename(job.files.paths.shp);
  const toMercator: ToMercator = mercatorTransform(shapefile.crs, shapefile.name);
  const fids = shapefile.version === inView.version ? inView.fids : recordsInView(shapefile, job, checkpoint);
  // A walk over the file bypasses the feature cache: it would only evict what others use.
  const shapes = shapefile.readShapes(Array.from(fids), { useCache: false, maxRings: limits.maxRings, checkpoint });
  const drawn: MapFeature[] = [];
  fids.forEach((fid, i) => {
    const shape = shapes[i];
    if (!shape) return;
    const projected = reprojectShape(shape, toMercator, fid, shpFile, checkpoint);
    if (overlaps(shapesBBox([projected]), job.visible)) drawn.push({ fid: String(fid), featureId: fid, shape: projected });
  });
  return drawn;
}
