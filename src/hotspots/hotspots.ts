/**
 * The HTML image-map areas of an image's features, from the pixels the image drew them at:
 * what a page needs to make each feature clickable, simplified to what a pointer can tell
 * apart, so that an area's size does not grow with its feature's.
 */
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import { overlaps } from '../geometry/bbox.ts';
import { dropNearVertices, simplifyShape } from '../geometry/simplify.ts';
import { linesShape, polygonsShape, type Shape } from '../geometry/shape.ts';
import type { BBox } from '../geometry/types.ts';
import type { AttributeValue } from '../shapefile/dbf.ts';
import { type Pixel, strokeOutline } from './stroke-outline.ts';

/** An HTML image-map area, as the `area` element takes it. */
export interface HotSpot {
  FeatureId: number;
  Fid: string;
  Shape: 'poly' | 'circle' | 'rect';
  Coords: string;
  /** With `hotSpotFields=`: the feature's values of those fields, after the interface's own members. */
  Attributes?: Record<string, AttributeValue>;
  /** A styled picture's: the feature's class, its index in the legend's classes (0-based), after Attributes. */
  Class?: number;
}

export interface HotSpotFeature {
  /** The id as the request listed it (`5.2`). */
  fid: string;
  /** The parent feature id (5 for `5.2`). */
  featureId: number;
  /** In image pixels, as the image drew it (projection/pixels.ts). */
  pixels: Shape;
}

/** The image the hot spots are for, and the style its features were drawn with. */
export interface HotSpotImage {
  width: number;
  height: number;
  lineWidth: number;
  pointRadius: number;
}

/** Narrower areas are hard to hit with a pointer. */
const MIN_HOT_SPOT_WIDTH = 8;
/** Areas are simplified to about a pixel, so their size does not grow with the feature's. */
const PIXEL_TOLERANCE = 1;
/** An area with more corners than this is simplified further: an image map needs no more. */
const MAX_AREA_VERTICES = 1000;

/**
 * Image-map areas for the features drawn on one image: a `poly` per outer ring of a
 * polygon, a `poly` around the stroke of each line (at least 8 px wide), a `circle` per
 * point. Coordinates are whole pixels clamped to the image; areas wholly outside it, and
 * holes, are left out.
 */
export function hotSpotsFor(features: readonly HotSpotFeature[], image: HotSpotImage, checkpoint: Checkpoint): HotSpot[] {
  const hotSpots: HotSpot[] = [];
  for (const feature of features) {
    for (const area of areasOf(feature.pixels, image, checkpoint)) {
      hotSpots.push({ FeatureId: feature.featureId, Fid: feature.fid, ...area });
    }
  }
  return hotSpots;
}

type Area = Pick<HotSpot, 'Shape' | 'Coords'>;

function areasOf(shape: Shape, image: HotSpotImage, checkpoint: Checkpoint): Area[] {
  const areas: (Area | undefined)[] = [];
  const { parts, polygons } = shape;
  switch (shape.kind) {
    case 'points':
      for (let part = 0; part < parts.length - 1; part++) {
        if (parts[part + 1] > parts[part]) areas.push(circleArea(pixelAt(shape, parts[part]), pointHalfWidth(image), image));
      }
      break;
    case 'lines':
      for (let part = 0; part < parts.length - 1; part++) areas.push(strokeArea(partPixels(shape, part, checkpoint), image));
      break;
    case 'polygons':
      for (let polygon = 0; polygon < polygons.length - 1; polygon++) {
        areas.push(polygonArea(partPixels(shape, polygons[polygon], checkpoint), image));
      }
      break;
  }
  return areas.filter((area): area is Area => area !== undefined);
}

/** A polygon no wider or taller than this (pixels) is a circle of MIN_HOT_SPOT_WIDTH: a pointer could hardly find it as it is. */
const TINY_POLYGON = 2;

function polygonArea(pixels: Pixel[], image: HotSpotImage): Area | undefined {
  if (pixels.length === 0) return undefined;
  const { xmin, ymin, xmax, ymax } = boundsOf(pixels);
  const tiny = xmax - xmin <= TINY_POLYGON && ymax - ymin <= TINY_POLYGON;
  return (tiny ? undefined : polyArea(pixels, image)) ?? circleArea(centreOf(pixels), MIN_HOT_SPOT_WIDTH / 2, image);
}

function strokeArea(pixels: Pixel[], image: HotSpotImage): Area | undefined {
  if (pixels.length === 0) return undefined;
  const halfWidth = Math.max(image.lineWidth, MIN_HOT_SPOT_WIDTH) / 2;
  const distinct = pixels.filter((pixel, i) => i === 0 || !samePixel(pixel, pixels[i - 1]));
  if (distinct.length < 2) return circleArea(distinct[0], halfWidth, image);
  return polyArea(strokeOutline(distinct, halfWidth), image) ?? circleArea(centreOf(distinct), halfWidth, image);
}

/**
 * One part (line or ring) of `shape`, simplified to about a pixel, and further until it
 * has at most MAX_AREA_VERTICES corners. Near vertices are dropped first, in one linear
 * pass, so Douglas–Peucker only sees what is left.
 */
function partPixels(shape: Shape, part: number, checkpoint: Checkpoint): Pixel[] {
  const xy = shape.xy.subarray(2 * shape.parts[part], 2 * shape.parts[part + 1]);
  const count = xy.length / 2;
  const single = shape.kind === 'polygons' ? polygonsShape(xy, Uint32Array.of(0, count), Uint32Array.of(0, 1)) : linesShape(xy, Uint32Array.of(0, count));
  let simplified: Shape;
  let tolerance = PIXEL_TOLERANCE;
  do {
    simplified = simplifyShape(dropNearVertices(single, tolerance, checkpoint), tolerance, checkpoint);
    tolerance *= 2;
  } while (simplified.xy.length / 2 > MAX_AREA_VERTICES);
  return Array.from({ length: simplified.xy.length / 2 }, (_, i) => pixelAt(simplified, i));
}

/** A `poly` of whole, clamped pixels; undefined when it is wholly outside or degenerate. */
function polyArea(pixels: Pixel[], image: HotSpotImage): Area | undefined {
  if (!overlaps(boundsOf(pixels), imageBox(image))) return undefined;
  const coords: Pixel[] = [];
  for (const pixel of pixels) {
    const rounded = clampToImage(pixel, image);
    const previous = coords[coords.length - 1];
    if (!previous || !samePixel(previous, rounded)) coords.push(rounded);
  }
  if (coords.length > 1 && samePixel(coords[0], coords[coords.length - 1])) coords.pop();
  if (coords.length < 3) return undefined;
  return { Shape: 'poly', Coords: coords.flat().join(',') };
}

function circleArea(centre: Pixel, radius: number, image: HotSpotImage): Area | undefined {
  const [x, y] = centre;
  const bounds = { xmin: x - radius, ymin: y - radius, xmax: x + radius, ymax: y + radius };
  if (!overlaps(bounds, imageBox(image))) return undefined;
  const [cx, cy] = clampToImage(centre, image);
  return { Shape: 'circle', Coords: `${cx},${cy},${Math.ceil(radius)}` };
}

function pointHalfWidth(image: HotSpotImage): number {
  return Math.max(image.pointRadius + image.lineWidth / 2, MIN_HOT_SPOT_WIDTH / 2);
}

function pixelAt(shape: Shape, vertex: number): Pixel {
  return [shape.xy[2 * vertex], shape.xy[2 * vertex + 1]];
}

function clampToImage([x, y]: Pixel, image: HotSpotImage): Pixel {
  return [clamp(Math.round(x), image.width), clamp(Math.round(y), image.height)];
}

function clamp(value: number, max: number): number {
  return Math.max(0, Math.min(max, value));
}

function samePixel(a: Pixel, b: Pixel): boolean {
  return Math.round(a[0]) === Math.round(b[0]) && Math.round(a[1]) === Math.round(b[1]);
}

function boundsOf(pixels: Pixel[]): BBox {
  const bounds = { xmin: Infinity, ymin: Infinity, xmax: -Infinity, ymax: -Infinity };
  for (const [x, y] of pixels) {
    bounds.xmin = Math.min(bounds.xmin, x);
    bounds.ymin = Math.min(bounds.ymin, y);
    bounds.xmax = Math.max(bounds.xmax, x);
    bounds.ymax = Math.max(bounds.ymax, y);
  }
  return bounds;
}

function centreOf(pixels: Pixel[]): Pixel {
  const { xmin, ymin, xmax, ymax } = boundsOf(pixels);
  return [(xmin + xmax) / 2, (ymin + ymax) / 2];
}

function imageBox(image: HotSpotImage): BBox {
  return { xmin: 0, ymin: 0, xmax: image.width, ymax: image.height };
}
