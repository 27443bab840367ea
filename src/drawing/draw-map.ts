/**
 * The second step of a map, on a worker thread: the features that reach into the view
 * (the listed ones, or every record of the file found by one sequential walk), simplified
 * to the pixel, drawn over the basemap the provider made, rasterized, with hot spots.
 */
import { basename } from 'node:path';
import { DamagedShapefileError } from '../errors.ts';
import type { Basemap } from '../sdk/contract.ts';
import { simplifyShape, type Checkpoint } from '../geometry/simplify.ts';
import { shapesBBox } from '../geometry/shape.ts';
import type { BBox } from '../geometry/types.ts';
import { hotSpotsFor } from '../hotspots/hotspots.ts';
import { mercatorBoxToFile, mercatorTransform, shapeToMercator, type ToMercator } from '../map/reproject.ts';
import type { PixelTransform } from '../projection/fit.ts';
import { toPixels, withinVertexBudget } from '../projection/pixels.ts';
import { drawOver, layOver } from '../raster/composite.ts';
import { encodeImage, rasterize, renderPixels } from '../raster/rasterize.ts';
import type { OpenShapefile, ShapefileFiles } from '../shapefile/file-set.ts';
import type { DrawStyle } from '../svg/style.ts';
import type { Handled } from '../workers/serve-jobs.ts';
import { BUDGET_START_TOLERANCE, DRAWN_VERTEX_BUDGET, type DrawingContext } from './context.ts';
import { drawnImage, hotSpotsWithFields } from './draw-image.ts';
import { attributionStripSvg, renderMapSvg } from './map-svg.ts';
import { onPixelGrid, tilePixels } from './tile-pixels.ts';
import { tooManyFeatures, tooManyVertices, type MapFeature, type MapLimits } from './map-features.ts';

export interface MapJob {
  files: ShapefileFiles;
  /** The listed features, from mapFeatures(); undefined: every feature of the file in view. */
  features?: MapFeature[];
  /** The file's bounding box in Web Mercator. */
  fileExtent: BBox;
  /** From Web Mercator metres to the image's pixels. */
  transform: PixelTransform;
  /** The view in Web Mercator metres, widened by what strokes and symbols reach beyond their geometry. */
  visible: BBox;
  width: number;
  height: number;
  style: DrawStyle;
  basemap: Basemap;
  includeHotSpots: boolean;
  /** Attribute values added to each hot spot (names as the request spells them). */
  hotSpotFields?: string[];
  /** The answer is JSON: the worker writes the PNG's list of byte values too. */
  pngAsJson: boolean;
  useCache: boolean;
  limits: MapLimits;
}

/** Vertices closer together than this (pixels) are one vertex on the map. */
const SIMPLIFY_PIXELS = 0.5;

export function drawMap(job: MapJob, context: DrawingContext): Handled {
  const { checkpoint, lap } = context;
  const { width, height, style, transform } = job;
  const inView = job.features
    ? job.features.filter((feature) => overlaps(shapesBBox([feature.shape]), job.visible))
    : scanInView(context.shapefiles.open(job.files, checkpoint), job, checkpoint);
  lap('features');
  const pixels = withinVertexBudget(
    inView.map(({ shape }) => toPixels(simplifyShape(shape, SIMPLIFY_PIXELS / transform.scale, checkpoint), transform, checkpoint)),
    DRAWN_VERTEX_BUDGET,
    BUDGET_START_TOLERANCE,
    checkpoint,
  );
  lap('pixels');
  checkpoint();
  const attributionText = job.basemap.attribution.trim();
  const attribution = attributionText ? attributionStrip(context, attributionText, width) : undefined;
  const tiles = job.basemap.below.images ?? [];
  const composite = tiles.length > 0 && onPixelGrid(tiles);
  // Raster tiles, decoded once and kept, are laid down here; resvg draws the rest over them.
  const basemap = composite ? { ...job.basemap, below: { svg: job.basemap.below.svg } } : job.basemap;
  const { svg, fonts } = renderMapSvg({ width, height, basemap, shapes: pixels, style, attribution });
  lap('svg');
  checkpoint();
  const options = { width, height, fonts, compressionLevel: context.compressionLevel };
  let png: Uint8Array;
  if (composite) {
    const canvas = new Uint8Array(width * height * 4);
    for (const tile of tiles) drawOver(canvas, width, height, tilePixels(context.rasterizer, tile), tile.width, tile.height, tile.x, tile.y);
    lap('tiles');
    layOver(renderPixels(context.rasterizer, svg, options, lap), canvas);
    lap('composite');
    png = encodeImage(canvas, options, lap);
  } else {
    png = rasterize(context.rasterizer, svg, options, lap);
  }
  const hotSpots = job.includeHotSpots
    ? hotSpotsWithFields(
        context.shapefiles.open(job.files, checkpoint),
        hotSpotsFor(
          inView.map((feature, i) => ({ fid: feature.fid, featureId: feature.featureId, pixels: pixels[i] })),
          { width, height, lineWidth: style.lineWidth, pointRadius: style.pointRadius },
          checkpoint,
        ),
        job.hotSpotFields,
      )
    : null;
  lap('hotspots');
  return drawnImage(png, hotSpots, job.pngAsJson);
}

/** Attribution strips drawn so far on this worker, by text and width (a map service shows few). */
const attributionStrips = new Map<string, Uint8Array>();
const MAX_ATTRIBUTION_STRIPS = 64;

function attributionStrip(context: DrawingContext, text: string, width: number): Uint8Array {
  const key = `${width}\0${text}`;
  let png = attributionStrips.get(key);
  if (!png) {
    const strip = attributionStripSvg(text, width);
    png = rasterize(context.rasterizer, strip.svg, { width, height: strip.height, fonts: strip.fonts, compressionLevel: context.compressionLevel });
    if (attributionStrips.size >= MAX_ATTRIBUTION_STRIPS) attributionStrips.delete(attributionStrips.keys().next().value!);
    attributionStrips.set(key, png);
  }
  return png;
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
    const projected = shapeToMercator(shape, toMercator, fid, shpFile);
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
