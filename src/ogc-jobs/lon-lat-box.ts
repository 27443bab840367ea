/**
 * Boxes between a shapefile's own units and WGS 84 longitude/latitude: a collection's
 * extent, and a `bbox` in the file's units, so that records are tested against it by their
 * own bounding boxes before any is decoded. A straight edge in one CRS is a curve in the
 * other, so edges are sampled; exact for lon/lat files.
 */
import { contains, intersection } from '../geometry/bbox.ts';
import type { BBox } from '../geometry/types.ts';
import { edgeSteps, sampledBounds } from '../projection/sampled-bounds.ts';
import { fromWgs84, toWgs84 } from '../shapefile/crs.ts';
import type { Crs } from '../shapefile/types.ts';

type Transform = (x: number, y: number) => [number, number];

const WORLD: BBox = { xmin: -180, ymin: -90, xmax: 180, ymax: 90 };

/**
 * The lon/lat box around `box` (file units), within ±180/±90; undefined when the CRS is
 * unknown or cannot place it. A box that holds a pole (polar stereographic data) reaches
 * that pole and goes all the way round: its edges alone would miss both.
 */
export function boxToLonLat(box: BBox, crs: Crs): BBox | undefined {
  const toLonLat = toWgs84(crs);
  const around = toLonLat && sampledBounds(box, toLonLat);
  if (!around) return undefined;
  const north = holdsPole(box, crs, 90);
  const south = holdsPole(box, crs, -90);
  const withPoles = north || south ? { xmin: -180, xmax: 180, ymin: south ? -90 : around.ymin, ymax: north ? 90 : around.ymax } : around;
  return intersection(withPoles, WORLD);
}

/**
 * Whether the pole at `latitude` (±90) lies in `box`, for a projected CRS (a lon/lat box
 * reaches a pole only by its edge). A projection that cannot place the pole (Mercator) holds none.
 */
function holdsPole(box: BBox, crs: Crs, latitude: number): boolean {
  if (!crs.proj4 || crs.geographic) return false;
  const [x, y] = fromWgs84(crs)!(0, latitude);
  return Number.isFinite(x) && Number.isFinite(y) && x >= box.xmin && x <= box.xmax && y >= box.ymin && y <= box.ymax;
}

/**
 * A lon/lat box in the file's units: `outer` holds all of it; `inner`, when there is one,
 * lies inside it (a record within `inner` is within the box without being decoded).
 * Undefined when the CRS is unknown or cannot place the box.
 */
export function lonLatBoxInFile(box: BBox, crs: Crs): { outer: BBox; inner?: BBox } | undefined {
  const fromLonLat = fromWgs84(crs);
  const sampled = fromLonLat && sampledBounds(box, fromLonLat);
  if (!sampled) return undefined;
  if (!crs.proj4) return { outer: sampled, inner: sampled };
  // Widened by rounding's worth: a record on the edge of `box` must not fall out of it by a
  // nanometre (proj4js's inverses with a datum shift iterate, to within a few millimetres).
  const outer = widened(sampled, ROUND_TRIP_SLACK, ROUND_TRIP_FLOOR);
  const inner = innerBox(box, fromLonLat);
  return inner && insideWithin(inner, toWgs84(crs)!, box) ? { outer, inner } : { outer };
}

/**
 * The box bounded by the innermost samples of each edge of `box` mapped by `transform`
 * (west edge to its largest x, and so on): inside the mapped box for the usual CRSs, whose
 * x grows eastward and y northward; lonLatBoxInFile checks that it is.
 */
function innerBox(box: BBox, transform: Transform): BBox | undefined {
  const inner: BBox = { xmin: -Infinity, ymin: -Infinity, xmax: Infinity, ymax: Infinity };
  for (const t of edgeSteps(box)) {
    const along = (from: number, to: number) => from * (1 - t) + to * t;
    inner.xmin = Math.max(inner.xmin, transform(box.xmin, along(box.ymin, box.ymax))[0]);
    inner.xmax = Math.min(inner.xmax, transform(box.xmax, along(box.ymin, box.ymax))[0]);
    inner.ymin = Math.max(inner.ymin, transform(along(box.xmin, box.xmax), box.ymin)[1]);
    inner.ymax = Math.min(inner.ymax, transform(along(box.xmin, box.xmax), box.ymax)[1]);
  }
  return inner.xmin <= inner.xmax && inner.ymin <= inner.ymax ? inner : undefined;
}

/** Whether `inner`'s sampled edges, mapped back by `transform`, lie in `box` (give or take rounding). */
function insideWithin(inner: BBox, transform: Transform, box: BBox): boolean {
  const mapped = sampledBounds(inner, transform);
  return mapped !== undefined && contains(widened(box, INSIDE_SLACK, 0), mapped);
}

/** Slack for rounding in a transform and back: 1e-7 of the coordinates (5 cm in RD New), and at least 1 cm (or 0.01°). */
const ROUND_TRIP_SLACK = 1e-7;
const ROUND_TRIP_FLOOR = 0.01;
const INSIDE_SLACK = 1e-9;

/** `box` grown on every side by `relative` times its largest coordinate (at least 1), and by at least `floor`. */
function widened(box: BBox, relative: number, floor: number): BBox {
  const slack = Math.max(floor, relative * Math.max(1, Math.abs(box.xmin), Math.abs(box.xmax), Math.abs(box.ymin), Math.abs(box.ymax)));
  return { xmin: box.xmin - slack, ymin: box.ymin - slack, xmax: box.xmax + slack, ymax: box.ymax + slack };
}
