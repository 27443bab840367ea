import type { Position } from 'geojson';
import { simplifyPositions } from '../geometry/simplify.ts';
import type { Geometry } from '../geometry/types.ts';
import { type PixelTransform, toPixel } from '../projection/fit.ts';
import { type Pixel, strokeOutline } from './stroke-outline.ts';

/** An HTML image-map area, as the `area` element takes it. */
export interface HotSpot {
  FeatureId: number;
  Fid: string;
  Shape: 'poly' | 'circle' | 'rect';
  Coords: string;
}

export interface HotSpotFeature {
  /** The id as the request listed it (`5.2`). */
  fid: string;
  /** The parent feature id (5 for `5.2`). */
  featureId: number;
  /** In the drawing space, as the image drew it. */
  geometry: Geometry;
}

/** The image the hot spots are for, and the style its features were drawn with. */
export interface HotSpotImage {
  width: number;
  height: number;
  lineWidth: number;
  pointRadius: number;
}

/** The image plus the transform that placed the features on it. */
interface Placement extends HotSpotImage {
  transform: PixelTransform;
}

/** Narrower areas are hard to hit with a pointer. */
const MIN_HOT_SPOT_WIDTH = 8;
/** Areas are simplified to about a pixel, so their size does not grow with the feature's. */
const PIXEL_TOLERANCE = 1;

/**
 * Image-map areas for the features drawn on one image: a `poly` per outer ring of a
 * polygon, a `poly` around the stroke of each line (at least 8 px wide), a `circle` per
 * point. Coordinates are whole pixels clamped to the image; areas wholly outside it, and
 * holes, are left out.
 */
export function hotSpotsFor(
  features: readonly HotSpotFeature[],
  transform: PixelTransform,
  imageAndStyle: HotSpotImage,
): HotSpot[] {
  const image: Placement = { ...imageAndStyle, transform };
  const hotSpots: HotSpot[] = [];
  for (const feature of features) {
    for (const area of areasOf(feature.geometry, image)) {
      hotSpots.push({ FeatureId: feature.featureId, Fid: feature.fid, ...area });
    }
  }
  return hotSpots;
}

type Area = Pick<HotSpot, 'Shape' | 'Coords'>;

function areasOf(geometry: Geometry, image: Placement): Area[] {
  const pointArea = (position: Position) => circleArea(pixelOf(position, image), pointHalfWidth(image), image);
  const ringArea = (rings: Position[][]) => polygonArea(rings[0] ?? [], image);
  const lineArea = (line: Position[]) => strokeArea(line, image);
  switch (geometry.type) {
    case 'Point':
      return present([pointArea(geometry.coordinates)]);
    case 'MultiPoint':
      return present(geometry.coordinates.map(pointArea));
    case 'LineString':
      return present([lineArea(geometry.coordinates)]);
    case 'MultiLineString':
      return present(geometry.coordinates.map(lineArea));
    case 'Polygon':
      return present([ringArea(geometry.coordinates)]);
    case 'MultiPolygon':
      return present(geometry.coordinates.map(ringArea));
  }
}

function present(areas: (Area | undefined)[]): Area[] {
  return areas.filter((area): area is Area => area !== undefined);
}

function polygonArea(ring: Position[], image: Placement): Area | undefined {
  const pixels = pixelPath(ring, image, 4);
  if (!pixels) return undefined;
  return polyArea(pixels, image) ?? circleArea(centreOf(pixels), MIN_HOT_SPOT_WIDTH / 2, image);
}

function strokeArea(line: Position[], image: Placement): Area | undefined {
  const pixels = pixelPath(line, image, 2);
  if (!pixels) return undefined;
  const halfWidth = Math.max(image.lineWidth, MIN_HOT_SPOT_WIDTH) / 2;
  const distinct = pixels.filter((pixel, i) => i === 0 || !samePixel(pixel, pixels[i - 1]));
  if (distinct.length < 2) return circleArea(distinct[0], halfWidth, image);
  return polyArea(strokeOutline(distinct, halfWidth), image) ?? circleArea(centreOf(distinct), halfWidth, image);
}

/** The path in pixels, simplified to about a pixel; undefined when it has no positions. */
function pixelPath(positions: Position[], image: Placement, minKept: number): Pixel[] | undefined {
  if (positions.length === 0) return undefined;
  // Simplifying in drawing units first keeps the work small for features of many vertices.
  const tolerance = PIXEL_TOLERANCE / image.transform.scale;
  return simplifyPositions(positions, tolerance * tolerance, minKept).map((position) => pixelOf(position, image));
}

/** A `poly` of whole, clamped pixels; undefined when it is wholly outside or degenerate. */
function polyArea(pixels: Pixel[], image: Placement): Area | undefined {
  if (!overlapsImage(boundsOf(pixels), image)) return undefined;
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

function circleArea(centre: Pixel, radius: number, image: Placement): Area | undefined {
  const [x, y] = centre;
  const bounds = { xmin: x - radius, ymin: y - radius, xmax: x + radius, ymax: y + radius };
  if (!overlapsImage(bounds, image)) return undefined;
  const [cx, cy] = clampToImage(centre, image);
  return { Shape: 'circle', Coords: `${cx},${cy},${Math.ceil(radius)}` };
}

function pointHalfWidth(image: Placement): number {
  return Math.max(image.pointRadius + image.lineWidth / 2, MIN_HOT_SPOT_WIDTH / 2);
}

function pixelOf([x, y]: Position, image: Placement): Pixel {
  return toPixel(image.transform, x, y);
}

function clampToImage([x, y]: Pixel, image: Placement): Pixel {
  return [clamp(Math.round(x), image.width), clamp(Math.round(y), image.height)];
}

function clamp(value: number, max: number): number {
  return Math.max(0, Math.min(max, value));
}

function samePixel(a: Pixel, b: Pixel): boolean {
  return Math.round(a[0]) === Math.round(b[0]) && Math.round(a[1]) === Math.round(b[1]);
}

interface Bounds {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}

function boundsOf(pixels: Pixel[]): Bounds {
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

function overlapsImage(bounds: Bounds, image: Placement): boolean {
  return bounds.xmax >= 0 && bounds.ymax >= 0 && bounds.xmin <= image.width && bounds.ymin <= image.height;
}
