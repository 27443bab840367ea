/**
 * Cuts lon/lat polygons and lines at the antimeridian, as Natural Earth's own shapefiles
 * are cut. world-atlas keeps its shapes whole on the sphere (Russia, Fiji and Antarctica
 * run across 180°, Antarctica around the South Pole), which d3 draws well but a shapefile
 * cannot hold: it is planar, so GDAL, QGIS and shapeshot join +180 to -180 by a segment
 * across the whole world and fill a band round the globe. d3-geo's antimeridian clipping
 * (its equirectangular projection in degrees, y up) does the cutting: rings are closed
 * along ±180° (and along the pole, for a ring around it), lines end there.
 */
import { geoEquirectangular, geoStream, type GeoPermissibleObjects, type GeoStream } from 'd3-geo';
import type { LineString, MultiLineString, MultiPolygon, Polygon, Position } from 'geojson';
import { assembleRings } from '../../src/geometry/rings/index.ts';

/** Degrees in, degrees out (y up, as in the shapefile); no resampling: only the cut adds vertices. */
const lonLat = geoEquirectangular()
  .scale(180 / Math.PI)
  .translate([0, 0])
  .reflectY(true)
  .precision(0);

/**
 * d3 moves a vertex lying on ±180° off it, by its epsilon (10⁻⁶) times π radians, to tell
 * which side it is on; such a vertex is put back on the meridian. world-atlas's grid (about
 * 0.0036°) has no vertex nearer to ±180° than this but on it.
 */
const NUDGED_OFF_THE_MERIDIAN_DEGREES = 2e-4;

/** The polygon as polygons that do not cross ±180°: pieces on both sides are polygons of their own. */
export function polygonsCutAtAntimeridian(geometry: Polygon | MultiPolygon): Polygon | MultiPolygon {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  if (!polygons.some((rings) => rings.some(crossesAntimeridian))) return geometry;
  // Each polygon alone: d3 streams what is left of one polygon as a bag of rings, outer rings
  // and holes mixed, so they are sorted out per polygon.
  const cut = polygons.flatMap((rings) => organized(streamedParts({ type: 'Polygon', coordinates: rings })));
  return cut.length === 1 ? { type: 'Polygon', coordinates: cut[0] } : { type: 'MultiPolygon', coordinates: cut };
}

/** The lines as lines that do not cross ±180°: each ends on the meridian and goes on from the other side. */
export function linesCutAtAntimeridian(geometry: LineString | MultiLineString): LineString | MultiLineString {
  const lines = geometry.type === 'LineString' ? [geometry.coordinates] : geometry.coordinates;
  if (!lines.some(crossesAntimeridian)) return geometry;
  const cut = streamedParts({ type: 'MultiLineString', coordinates: lines });
  return cut.length === 1 ? { type: 'LineString', coordinates: cut[0] } : { type: 'MultiLineString', coordinates: cut };
}

/**
 * Whether a segment jumps more than half the world: the shortest way between its ends, the
 * way d3 (and the sphere) takes it, goes across ±180°. Shapes without one are left as they
 * are, to the last bit (d3's round trip through radians would move their vertices by an ulp).
 */
function crossesAntimeridian(positions: Position[]): boolean {
  for (let i = 1; i < positions.length; i++) if (Math.abs(positions[i][0] - positions[i - 1][0]) > 180) return true;
  return false;
}

/** The rings or lines d3's antimeridian clipping leaves of `geometry`, closed rings closed again. */
function streamedParts(geometry: GeoPermissibleObjects): Position[][] {
  const parts: Position[][] = [];
  let current: Position[] = [];
  let inPolygon = false;
  const sink: GeoStream = {
    point: (x, y) => {
      const position = [onTheMeridian(x), y];
      if (current.length === 0 || !samePosition(current[current.length - 1], position)) current.push(position);
    },
    lineStart: () => void (current = []),
    lineEnd: () => {
      const part = inPolygon ? closed(straightAlongTheMeridian(current)) : current;
      if (part.length > 1) parts.push(part);
    },
    polygonStart: () => void (inPolygon = true),
    polygonEnd: () => void (inPolygon = false),
    sphere: () => undefined,
  };
  geoStream(geometry, lonLat.stream(sink));
  return parts;
}

function onTheMeridian(x: number): number {
  return Math.abs(Math.abs(x) - 180) <= NUDGED_OFF_THE_MERIDIAN_DEGREES ? Math.sign(x) * 180 : x;
}

/**
 * The ring (open, as d3 streams it) with each run of vertices on ±180° reduced to its ends.
 * Where the ring had a vertex on the meridian, d3 cuts a hair beside it (the vertex was
 * nudged), so the ring goes up the meridian to the cut and back down to the vertex: a spike
 * that GDAL reads as a self-intersection. The ends of the run are where the ring meets and
 * leaves the meridian; between them it runs along the meridian, straight, enclosing nothing.
 */
function straightAlongTheMeridian(ring: Position[]): Position[] {
  const onSameMeridian = (a: Position, b: Position) => Math.abs(a[0]) === 180 && a[0] === b[0];
  if (ring.every((position) => onSameMeridian(position, ring[0]))) return ring;
  return ring.filter((position, index) => {
    const previous = ring[(index + ring.length - 1) % ring.length];
    const next = ring[(index + 1) % ring.length];
    return !(onSameMeridian(position, previous) && onSameMeridian(position, next));
  });
}

/** d3 streams a ring without its closing position; a shapefile ring repeats its first. */
function closed(ring: Position[]): Position[] {
  return ring.length === 0 || samePosition(ring[0], ring[ring.length - 1]) ? ring : [...ring, ring[0]];
}

function samePosition(a: Position, b: Position): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

/**
 * Rings into polygons the way GDAL will read them back (clockwise rings are outer rings,
 * each counter-clockwise ring a hole of the smallest that holds it): d3 keeps the sphere's
 * winding, outer rings clockwise as seen on a north-up map, which is the shapefile's.
 */
function organized(rings: Position[][]): Position[][][] {
  const ringStarts = new Uint32Array(rings.length + 1);
  rings.forEach((ring, index) => (ringStarts[index + 1] = ringStarts[index] + ring.length));
  const xy = Float64Array.from(rings.flatMap((ring) => ring.flatMap(([x, y]) => [x, y])));
  const { order, polygonStarts } = assembleRings(xy, ringStarts);
  const polygons: Position[][][] = [];
  for (let polygon = 0; polygon + 1 < polygonStarts.length; polygon++) {
    polygons.push([...order.subarray(polygonStarts[polygon], polygonStarts[polygon + 1])].map((ring) => rings[ring]));
  }
  return polygons;
}
