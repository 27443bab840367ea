/**
 * Web Mercator world pixels at zoom 0: the whole world is one tile, origin at 180°W,
 * 85.0511°N, y down. A map view at zoom z is this space scaled by 2^z.
 */
import type { Position } from 'geojson';
import { geoIdentity, geoMercator, geoMercatorRaw, geoProjection, geoStream, type GeoPermissibleObjects, type GeoStream } from 'd3-geo';
import { TILE_SIZE, worldSize, type MapView } from '../../src/sdk/plugin.ts';
import { FlatPartsBuilder, partCount, type FlatParts } from './flat-parts.ts';

/**
 * d3's Mercator cuts shapes at the antimeridian and clips them to the square world (the
 * Natural Earth data crosses 180° and reaches the poles). No resampling: the data's own
 * vertices are dense enough, and a straight parallel stays straight in Mercator.
 */
const mercator = geoMercator()
  .scale(TILE_SIZE / (2 * Math.PI))
  .translate([TILE_SIZE / 2, TILE_SIZE / 2])
  .precision(0);

/**
 * The same projection without the clipping to the square world: for shapes that stay inside
 * it, cutting them at the antimeridian is all d3 does, and the clipping would cost as much again.
 */
const mercatorUnclipped = geoProjection(geoMercatorRaw)
  .scale(TILE_SIZE / (2 * Math.PI))
  .translate([TILE_SIZE / 2, TILE_SIZE / 2])
  .precision(0);

/**
 * A lon/lat position in zoom-0 world pixels, through the same d3 Mercator as whole shapes
 * (not the SDK's, which clamps latitudes), so shapes projected either way meet.
 */
export function projectPosition(position: Position): Position {
  return mercator(position as [number, number])!;
}

/** The rings (of a polygon) or lines that are left of `geometry` after `stream` (a projection or clip). */
function captureParts(geometry: GeoPermissibleObjects | FlatShape, stream: (sink: GeoStream) => GeoStream): FlatParts {
  const parts = new FlatPartsBuilder();
  let inPolygon = false;
  streamInto(
    geometry,
    stream({
      point: (x, y) => parts.push(x, y),
      lineStart: () => undefined,
      // d3 streams a ring without its closing position; GeoJSON wants it back.
      lineEnd: () => {
        if (inPolygon && parts.partLength > 0) parts.push(...parts.partStart());
        parts.endPart(2);
      },
      polygonStart: () => void (inPolygon = true),
      polygonEnd: () => void (inPolygon = false),
      sphere: () => undefined,
    }),
  );
  return parts.done();
}

/** GeoJSON streamed as d3's geoStream streams it; flat parts as if they were the GeoJSON they stand for. */
function streamInto(geometry: GeoPermissibleObjects | FlatShape, stream: GeoStream): void {
  if (!('flat' in geometry)) return geoStream(geometry, stream);
  const { flat, kind } = geometry;
  // A ring's closing position is not streamed: geoStream leaves it out too.
  const closing = kind === 'polygon' ? 1 : 0;
  if (kind === 'polygon') stream.polygonStart();
  for (let part = 0; part < partCount(flat); part++) {
    stream.lineStart();
    for (let i = flat.starts[part]; i < flat.starts[part + 1] - closing; i++) stream.point(flat.xy[2 * i], flat.xy[2 * i + 1]);
    stream.lineEnd();
  }
  if (kind === 'polygon') stream.polygonEnd();
}

/** A shape's flat parts and what they are. */
export interface FlatShape {
  flat: FlatParts;
  kind: 'polygon' | 'line';
}

/** A polygon's rings or a set of lines (lon/lat, within Mercator's latitudes) in world pixels. */
export function projectToWorldPixels(shape: FlatShape): FlatParts {
  // d3's spherical clipping is costly on big shapes; only the few that cross 180° need it.
  if (!crossesAntimeridian(shape.flat)) {
    const { xy, starts } = shape.flat;
    const parts = new FlatPartsBuilder();
    for (let part = 0; part < partCount(shape.flat); part++) {
      for (let i = starts[part]; i < starts[part + 1]; i++) parts.push(...(projectPosition([xy[2 * i], xy[2 * i + 1]]) as [number, number]));
      parts.endPart();
    }
    return parts.done();
  }
  // Cut and projected alone, a shape that stays in the square world is what clipping would
  // have left of it; one that leaves it (a polygon around a pole reaches infinity) is clipped.
  const cut = captureParts(shape, (sink) => mercatorUnclipped.stream(sink));
  return insideTheWorld(cut) ? cut : captureParts(shape, (sink) => mercator.stream(sink));
}

function insideTheWorld({ xy }: FlatParts): boolean {
  for (const coordinate of xy) if (!(coordinate >= 0 && coordinate <= TILE_SIZE)) return false;
  return true;
}

function crossesAntimeridian({ xy, starts }: FlatParts): boolean {
  for (let part = 0; part + 1 < starts.length; part++) {
    for (let i = starts[part] + 1; i < starts[part + 1]; i++) if (Math.abs(xy[2 * i] - xy[2 * i - 2]) > 180) return true;
  }
  return false;
}

/** What is left of `shape` (planar) inside the rectangle. */
export function clipToRectangle(shape: FlatShape, extent: [[number, number], [number, number]]): FlatParts {
  const clip = geoIdentity().clipExtent(extent);
  return captureParts(shape, (sink) => clip.stream(sink));
}

/**
 * The horizontal offsets (image pixels) of the copies of the world that the view shows: a
 * view wider than the world, or one across the antimeridian, shows more than one.
 */
export function worldCopyOffsets(view: MapView): number[] {
  const worldWidth = worldSize(view.zoom);
  const first = Math.floor(view.left / worldWidth);
  const last = Math.ceil((view.left + view.width) / worldWidth) - 1;
  const offsets: number[] = [];
  for (let copy = first; copy <= last; copy++) offsets.push(copy * worldWidth - view.left);
  return offsets;
}
