/**
 * The features a map draws, in Web Mercator metres: only those that reach into the view,
 * simplified to the pixel, and no more than the configured budget of features and vertices.
 */
import { BadRequestError, OverloadedError } from '../errors.ts';
import { bboxOf } from '../geometry/bbox.ts';
import { simplifyGeometry } from '../geometry/simplify.ts';
import type { BBox, Geometry } from '../geometry/types.ts';
import type { Shapefile } from '../shapefile/types.ts';
import { geometryToMercator, mercatorBoxToFile, type ToMercator } from './reproject.ts';

export interface MapFeature {
  /** The id as listed (`5.2`), or the record number when every feature is drawn. */
  fid: string;
  /** The parent feature id. */
  featureId: number;
  /** Web Mercator metres. */
  geometry: Geometry;
}

export interface MapLimits {
  maxMapFeatures: number;
  maxMapVertices: number;
}

/** Vertices closer together than this (pixels) are one vertex on the map. */
const SIMPLIFY_PIXELS = 0.5;

/** Counts what a map draws, and refuses the map once it would draw more than its limits allow. */
class DrawBudget {
  private features = 0;
  private vertices = 0;

  constructor(private readonly limits: MapLimits) {}

  spend(vertices: number): void {
    this.features++;
    this.vertices += vertices;
    if (this.features > this.limits.maxMapFeatures) {
      throw new BadRequestError(
        `The map would draw more than ${this.limits.maxMapFeatures} features, the most one map may draw; ` +
          "list fewer ids in 'fid' or show a smaller area (a higher 'zoom').",
      );
    }
    if (this.vertices > this.limits.maxMapVertices) {
      throw new BadRequestError(
        `The map would draw more than ${this.limits.maxMapVertices} vertices, the most one map may draw; ` +
          "list fewer ids in 'fid' or show a smaller area (a higher 'zoom').",
      );
    }
  }
}

/** Listed features (already in Web Mercator) that reach into `view`, simplified to the pixel. */
export function listedInView(features: readonly MapFeature[], view: BBox, scale: number, limits: MapLimits): MapFeature[] {
  const budget = new DrawBudget(limits);
  const drawn: MapFeature[] = [];
  for (const feature of features) {
    const box = bboxOf(feature.geometry);
    if (!box || !overlaps(box, view)) continue;
    budget.spend(vertexCount(feature.geometry));
    drawn.push({ ...feature, geometry: simplifyGeometry(feature.geometry, SIMPLIFY_PIXELS / scale) });
  }
  return drawn;
}

/**
 * Every feature of the file that reaches into `view` (`fileExtent`: the file's whole
 * extent in Web Mercator), in file order, read with one
 * sequential scan. Records are first tested by their own bounding box in the file's units,
 * so those out of view are never decoded; the budget counts records before they are decoded.
 */
export async function scanInView(
  shapefile: Shapefile,
  toMercator: ToMercator,
  fileExtent: BBox,
  view: BBox,
  scale: number,
  limits: MapLimits,
  signal: AbortSignal,
): Promise<MapFeature[]> {
  // A view that holds the whole file needs no test; and far outside a projection's area
  // its inverse can answer nonsense, so the view is mapped into the file's units only when
  // it shows part of the file.
  const viewInFile = contains(view, fileExtent) ? undefined : mercatorBoxToFile(view, shapefile.crs);
  const budget = new DrawBudget(limits);
  const drawn: MapFeature[] = [];
  for await (const record of shapefile.scan()) {
    if (signal.aborted) throw new OverloadedError('The map could not be drawn within the time allowed; retry later.', 2);
    if (!record.bbox || (viewInFile && !overlaps(record.bbox, viewInFile))) continue;
    budget.spend(record.pointCount);
    const geometry = await record.geometry();
    if (!geometry) continue;
    const projected = geometryToMercator(geometry, toMercator);
    const box = bboxOf(projected);
    if (!box || !overlaps(box, view)) continue;
    drawn.push({
      fid: String(record.fid),
      featureId: record.fid,
      geometry: simplifyGeometry(projected, SIMPLIFY_PIXELS / scale),
    });
  }
  return drawn;
}

function contains(outer: BBox, inner: BBox): boolean {
  return outer.xmin <= inner.xmin && outer.xmax >= inner.xmax && outer.ymin <= inner.ymin && outer.ymax >= inner.ymax;
}

function overlaps(a: BBox, b: BBox): boolean {
  return a.xmin <= b.xmax && a.xmax >= b.xmin && a.ymin <= b.ymax && a.ymax >= b.ymin;
}

function vertexCount(geometry: Geometry): number {
  switch (geometry.type) {
    case 'Point':
      return 1;
    case 'MultiPoint':
    case 'LineString':
      return geometry.coordinates.length;
    case 'MultiLineString':
    case 'Polygon':
      return geometry.coordinates.reduce((sum, line) => sum + line.length, 0);
    case 'MultiPolygon':
      return geometry.coordinates.reduce((sum, polygon) => sum + polygon.reduce((s, ring) => s + ring.length, 0), 0);
  }
}
