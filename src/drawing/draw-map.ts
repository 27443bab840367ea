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
import { shapesBBox } from '../geometry/shape.ts';
import { clipToBox } from '../geometry/clip-to-box.ts';
import type { BBox } from '../geometry/types.ts';
import { mercatorTransform, reprojector, type ToMercator } from '../map/reproject.ts';
import { approximatedWithin } from '../map/approximate-transform.ts';
import { mapPacked, packShapes, shapePacker, unpackShapes, type PackedShapes } from '../geometry/packed-shapes.ts';
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import { listSubset, refsOf, wholeFeatures } from '../params/fid.ts';
import { pixelWriter } from '../projection/pixels.ts';
import { readingEach } from '../shapefile/byte-reader.ts';
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
import { checkDrawingWork, drawingWork } from './picture-budget.ts';
import { pixelShapes } from './pixel-shapes.ts';
import { tilesFromCache, tilePixels } from './tile-pixels.ts';
import type { MapLimits } from './map-budget.ts';
import type { ListedFeatures } from './map-features.ts';
import { classByFeature, featureStyler, type FeatureStyling } from './feature-styling.ts';
import { pictureOverlay } from './picture-overlay.ts';
import { basemapClearOf } from '../labels/basemap-labels.ts';
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
  limits: MapLimits & { maxLabels: number; maxDrawingWork: number };
  /** Reproject within `tolerance` metres over `box` (file units) by interpolation (map/approximate-transform.ts); absent: exactly. */
  approximation?: { box: BBox; tolerance: number };
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
    'shapes' in job.features ? keepInView(job.features, job.visible) : decodeInView(context.shapefiles.open(job.files, checkpoint), job, job.features, checkpoint);
  lap('features');
  const reduction = { pixelRatio, simplifyPixels: SIMPLIFY_PIXELS, checkpoint };
  const points = stampsPoints(inView.shapes);
  // Points are placed in one pass over their packed vertices, and stamped from there; lines and
  // polygons are reduced to the pixel one by one, and drawn by resvg.
  const pointPixels = points ? mapPacked(inView.shapes, pixelWriter(transform)) : undefined;
  const shapes = once(() => unpackShapes(inView.shapes));
  const pixels = once(() => (pointPixels ? unpackShapes(pointPixels) : pixelShapes(shapes(), transform, reduction)));
  // What the picture draws of them: cut to the picture and the margin strokes and symbols reach
  // into (hot spots and labels keep the whole shapes).
  const drawn = once(() => {
    const margin = style.lineWidth + style.pointRadius + 2;
    const canvas = { xmin: -margin, ymin: -margin, xmax: width + margin, ymax: height + margin };
    return pixels().map((shape) => clipToBox(shape, canvas));
  });
  if (!points) drawn();
  lap('pixels');
  checkpoint();
  const attributionText = job.basemap.attribution.trim();
  const attribution = attributionText ? attributionStrip(context, attributionText, width, pixelRatio) : undefined;
  const featureIds = Array.from(inView.refs.parents);
  const styled = styler?.(featureIds, checkpoint);
  if (!points) checkDrawingWork(drawingWork(drawn(), style, pixelRatio, styled?.paints), job.limits.maxDrawingWork);
  const overlay = job.styling && styled && pictureOverlay(job.styling, styled, {
    width,
    height,
    pixels: pixels(),
    pointRadius: style.pointRadius,
    maxLabels: job.limits.maxLabels,
    checkpoint,
    ...(attribution ? { bottomInset: ATTRIBUTION_STRIP_HEIGHT } : {}),
  });
  lap('styling');
  // The features' labels win over the basemap's (docs/api.md, "Basemap labels").
  const labelled = overlay ? basemapClearOf(job.basemap, overlay.labels) : job.basemap;
  const { basemap, underTiles } = tilesLaidApart(labelled);
  const mapSvg: MapSvg = { width, height, pixelRatio, basemap, shapes: pointPixels ? [] : drawn(), style, attribution, paints: styled?.paints, overlay: overlay?.svg };
  const canvas = pointPixels ? stampedMapPixels(context, mapSvg, pointPixels, underTiles) : mapPixels(context, mapSvg, underTiles);
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
  const ids = () => refsOf(inView.refs).map((ref) => ({ fid: ref.text, featureId: ref.parent }));
  const plainHotSpots = job.includeHotSpots ? imageHotSpots(job, { ids: ids(), shapes: shapes(), pixels: pixels(), transform, reduction, width, height, style }, attributes) : null;
  const hotSpots = plainHotSpots && job.styling?.colouring && styled ? withClasses(plainHotSpots, classByFeature(featureIds, styled)) : plainHotSpots;
  lap('hotspots');
  return drawnImage(image, hotSpots, job, lap);
}

/**
 * Raster tiles, decoded once and kept, are laid down by mapPixels(); resvg draws the rest
 * over them. The basemap without the tiles mapPixels() lays, and those tiles.
 */
export function tilesLaidApart(basemap: Basemap): { basemap: Basemap; underTiles: readonly PlacedImage[] } {
  const tiles = basemap.below.images ?? [];
  if (tiles.length === 0 || !tilesFromCache(tiles)) return { basemap, underTiles: [] };
  return { basemap: { ...basemap, below: { ...basemap.below, images: undefined } }, underTiles: tiles };
}

/** `make()`, made on the first call and kept. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/**
 * The map's premultiplied pixels: resvg's drawing of its SVG, laid over `tiles` (decoded
 * once and kept, tile-pixels.ts), each at its CSS place times the pixel ratio.
 */
export function mapPixels(context: DrawingContext, picture: MapSvg, tiles: readonly PlacedImage[]): Uint8Array {
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
function stampedMapPixels(context: DrawingContext, picture: MapSvg, points: PackedShapes, tiles: readonly PlacedImage[]): Uint8Array {
  const { width, height, pixelRatio, basemap } = picture;
  const nothing = { shapes: [], overlay: undefined, attribution: undefined };
  const below: MapSvg = { ...picture, ...nothing, basemap: { ...basemap, above: undefined } };
  const { svg: above, fonts } = renderMapSvg({ ...picture, shapes: [], basemap: { ...basemap, below: {} } });
  const stamped = { below: renderMapSvg(below).svg, above, points, style: picture.style, paints: picture.paints };
  const options = { width, height, pixelRatio, fonts };
  return stampedPixels(context.rasterizer, stamped, options, context.checkpoint, context.lap, () => mapPixels(context, below, tiles));
}

/**
 * The features of a map without `fid` that reach into the view, decoded in file order and
 * packed in Web Mercator: the records mapInView() found (and budgeted) before the basemap was
 * drawn, or, when the files changed on disk since, those a new walk finds, budgets and all.
 * Read a batch at a time: what a batch decodes lives only until it is packed.
 */
function decodeInView(shapefile: OpenShapefile, job: MapJob, inView: RecordsInView, checkpoint: Checkpoint): ListedFeatures {
  const { limits } = job;
  const shpFile = basename(job.files.paths.shp);
  const exact: ToMercator = mercatorTransform(shapefile.crs, shapefile.name);
  const toMercator = job.approximation ? approximatedWithin(exact, job.approximation.box, job.approximation.tolerance) : exact;
  const fids = shapefile.version === inView.version ? inView.fids : recordsInView(shapefile, job, checkpoint);
  const packer = shapePacker();
  const reproject = reprojector(packer, toMercator, shpFile, checkpoint);
  const drawn: number[] = [];
  const batches = Array.from({ length: Math.ceil(fids.length / DECODE_BATCH) }, (_, i) => Array.from(fids.subarray(i * DECODE_BATCH, (i + 1) * DECODE_BATCH)));
  // A remote file's missing bytes for every batch are fetched together (readingEach), and the walk runs again.
  readingEach(batches, (batch) => {
    // A walk over the file bypasses the feature cache: it would only evict what others use.
    const shapes = shapefile.readShapes(batch, { useCache: false, maxRings: limits.maxRings, checkpoint });
    shapes.forEach((shape, i) => {
      if (!shape) return;
      if (overlaps(reproject(shape, batch[i]), job.visible)) drawn.push(batch[i]);
      else packer.dropLast();
    });
  });
  return { refs: wholeFeatures(Uint32Array.from(drawn)), shapes: packer.finish() };
}

/** Records decoded at a time by decodeInView(). */
const DECODE_BATCH = 16_384;

/** The listed features that reach into the view: all of them, or those repacked. */
function keepInView(listed: ListedFeatures, visible: BBox): ListedFeatures {
  const shapes = unpackShapes(listed.shapes);
  const kept = shapes.flatMap((shape, i) => (overlaps(shapesBBox([shape]), visible) ? [i] : []));
  if (kept.length === shapes.length) return listed;
  return { refs: listSubset(listed.refs, kept), shapes: packShapes(kept.map((i) => shapes[i])) };
}
