/**
 * The second step of a map, on a worker thread: the features that reach into the view
 * (the listed ones, or every record of the file found by one sequential walk), simplified
 * to the pixel, drawn over the basemap the provider made, rasterized, with hot spots.
 */
import { basename } from 'node:path';
import { DamagedShapefileError } from '../errors.ts';
import type { Basemap, PlacedImage } from '../sdk/contract.ts';
import type { Checkpoint } from '../geometry/simplify.ts';
import { shapesBBox } from '../geometry/shape.ts';
import type { BBox } from '../geometry/types.ts';
import { mercatorBoxToFile, mercatorTransform, reprojectShape, type ToMercator } from '../map/reproject.ts';
import type { PixelTransform } from '../projection/fit.ts';
import type { Format } from '../params/fields.ts';
import { drawOver, layOver } from '../raster/composite.ts';
import { encodeJpeg } from '../raster/jpeg.ts';
import { encodeImage, renderPixels, type RenderOptions } from '../raster/rasterize.ts';
import type { OpenShapefile, ShapefileFiles } from '../shapefile/file-set.ts';
import type { DrawStyle } from '../svg/style.ts';
import type { Handled } from '../workers/serve-jobs.ts';
import { attributionStrip } from './attribution-strip.ts';
import type { DrawingContext } from './context.ts';
import { drawnImage } from './draw-image.ts';
import { hotSpotAttributes, imageHotSpots, type HotSpotRequest } from './image-hot-spots.ts';
import { renderMapSvg } from './map-svg.ts';
import { pixelShapes } from './pixel-shapes.ts';
import { tilesFromCache, tilePixels } from './tile-pixels.ts';
import { tooManyFeatures, tooManyVertices, type MapFeature, type MapLimits } from './map-features.ts';

export interface MapJob extends HotSpotRequest {
  files: ShapefileFiles;
  /** The listed features, from mapFeatures(); undefined: every feature of the file in view. */
  features?: MapFeature[];
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
  basemap: Basemap;
  /** The request's: jpeg answers a JPEG; json has the worker write the PNG's list of byte values too. */
  format: Format;
  /** Of a JPEG, 1–100. */
  jpegQuality: number;
  useCache: boolean;
  limits: MapLimits;
}

/** Vertices closer together than this (real pixels) are one vertex on the map. */
const SIMPLIFY_PIXELS = 0.5;

export async function drawMap(job: MapJob, context: DrawingContext): Promise<Handled> {
  const { checkpoint, lap } = context;
  const { width, height, pixelRatio, style, transform } = job;
  const attributes = hotSpotAttributes(job, () => context.shapefiles.open(job.files, checkpoint));
  const inView = job.features
    ? job.features.filter((feature) => overlaps(shapesBBox([feature.shape]), job.visible))
    : scanInView(context.shapefiles.open(job.files, checkpoint), job, checkpoint);
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
  const { svg, fonts } = renderMapSvg({ width, height, pixelRatio, basemap, shapes: pixels, style, attribution });
  lap('svg');
  checkpoint();
  const canvas = mapPixels(context, svg, { width, height, pixelRatio, fonts }, composite ? tiles : []);
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
  const hotSpots = imageHotSpots(job, { ids: inView, shapes, pixels, transform, reduction, width, height, style }, attributes);
  lap('hotspots');
  return drawnImage(image, hotSpots, job.format);
}

/**
 * The map's premultiplied pixels: resvg's drawing of `svg`, laid over `tiles` (decoded once
 * and kept, tile-pixels.ts), each at its CSS place times the pixel ratio.
 */
function mapPixels(context: DrawingContext, svg: string, options: RenderOptions, tiles: readonly PlacedImage[]): Uint8Array {
  const drawn = renderPixels(context.rasterizer, svg, options, context.lap);
  if (tiles.length === 0) return drawn;
  const { pixelRatio } = options;
  const [width, height] = [options.width * pixelRatio, options.height * pixelRatio];
  const canvas = new Uint8Array(width * height * 4);
  for (const tile of tiles) {
    const pixels = tilePixels(context.rasterizer, tile, pixelRatio);
    drawOver(canvas, width, height, pixels, tile.width * pixelRatio, tile.height * pixelRatio, tile.x * pixelRatio, tile.y * pixelRatio);
  }
  context.lap('tiles');
  layOver(drawn, canvas);
  context.lap('composite');
  return canvas;
}

/**
 * Every feature of the file that reaches into the view, in file order, in two walks over
 * the `.shp`. The first reads only record headers: records out of view are skipped by
 * their own bounding box, and the map's budget is counted over the rest before any record
 * is decoded. The second decodes those in view.
 */
function scanInView(shapefile: OpenShapefile, job: MapJob, checkpoint: Checkpoint): MapFeature[] {
  const { limits } = job;
  const shpFile = basename(job.files.paths.shp);
  const toMercator: ToMercator = mercatorTransform(shapefile.crs, shapefile.name);
  // A view that holds the whole file needs no test; and far outside a projection's area
  // its inverse can answer nonsense, so the view is mapped into the file's units only when
  // it shows part of the file.
  const viewInFile = contains(job.visible, job.fileExtent) ? undefined : mercatorBoxToFile(job.visible, shapefile.crs);

  const selected: number[] = [];
  let vertices = 0;
  for (const record of shapefile.walk(checkpoint)) {
    const { bbox } = record;
    if (!bbox || record.pointCount === 0) continue;
    if (![bbox.xmin, bbox.ymin, bbox.xmax, bbox.ymax].every(Number.isFinite)) {
      throw new DamagedShapefileError(shpFile, `record ${record.fid} has a bounding box that is not finite.`);
    }
    if (viewInFile && !overlaps(bbox, viewInFile)) continue;
    selected.push(record.fid);
    vertices += record.pointCount;
    if (selected.length > limits.maxMapFeatures) throw tooManyFeatures(selected.length, limits.maxMapFeatures);
  }
  if (vertices > limits.maxMapVertices) throw tooManyVertices(vertices, limits.maxMapVertices);

  const drawn: MapFeature[] = [];
  for (const fid of selected) {
    // A walk over the file bypasses the feature cache: it would only evict what others use.
    const shape = shapefile.readShape(fid, { useCache: false, maxRings: limits.maxRings, checkpoint });
    if (!shape) continue;
    const projected = reprojectShape(shape, toMercator, fid, shpFile, checkpoint);
    if (overlaps(shapesBBox([projected]), job.visible)) drawn.push({ fid: String(fid), featureId: fid, shape: projected });
  }
  return drawn;
}

function contains(outer: BBox, inner: BBox): boolean {
  return outer.xmin <= inner.xmin && outer.xmax >= inner.xmax && outer.ymin <= inner.ymin && outer.ymax >= inner.ymax;
}

function overlaps(a: BBox | undefined, b: BBox): boolean {
  return a !== undefined && a.xmin <= b.xmax && a.xmax >= b.xmin && a.ymin <= b.ymax && a.ymax >= b.ymin;
}
