/**
 * Web Mercator world pixels at zoom 0: the whole world is one tile, origin at 180°W,
 * 85.0511°N, y down. A map view at zoom z is this space scaled by 2^z.
 */
import type { MultiLineString, Polygon, Position } from 'geojson';
import { geoIdentity, geoMercator, geoStream, type GeoPermissibleObjects, type GeoStream } from 'd3-geo';
import { TILE_SIZE, worldSize, type MapView } from '../../src/sdk/plugin.ts';

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
 * A lon/lat position in zoom-0 world pixels, through the same d3 Mercator as whole shapes
 * (not the SDK's, which clamps latitudes), so shapes projected either way meet.
 */
export function projectPosition(position: Position): Position {
  return mercator(position as [number, number])!;
}

/** The rings (of a polygon) or lines that are left of `geometry` after `stream` (a projection or clip). */
function captureParts(geometry: GeoPermissibleObjects, stream: (sink: GeoStream) => GeoStream): Position[][] {
  const parts: Position[][] = [];
  let current: Position[] = [];
  let inPolygon = false;
  geoStream(
    geometry,
    stream({
      point: (x, y) => void current.push([x, y]),
      lineStart: () => void (current = []),
      // d3 streams a ring without its closing position; GeoJSON wants it back.
      lineEnd: () => {
        if (inPolygon && current.length > 0) current.push(current[0]);
        if (current.length > 1) parts.push(current);
      },
      polygonStart: () => void (inPolygon = true),
      polygonEnd: () => void (inPolygon = false),
      sphere: () => undefined,
    }),
  );
  return parts;
}

/** A polygon's rings or a set of lines (lon/lat, within Mercator's latitudes) in world pixels. */
export function projectToWorldPixels(geometry: Polygon | MultiLineString): Position[][] {
  // d3's spherical clipping is costly on big shapes; only the few that cross 180° need it.
  if (geometry.coordinates.some(crossesAntimeridian)) return captureParts(geometry, (sink) => mercator.stream(sink));
  return geometry.coordinates.map((part) => part.map(projectPosition));
}

function crossesAntimeridian(positions: Position[]): boolean {
  for (let i = 1; i < positions.length; i++) if (Math.abs(positions[i][0] - positions[i - 1][0]) > 180) return true;
  return false;
}

/** What is left of `geometry` (planar) inside the rectangle. */
export function clipToRectangle(geometry: GeoPermissibleObjects, extent: [[number, number], [number, number]]): Position[][] {
  const clip = geoIdentity().clipExtent(extent);
  return captureParts(geometry, (sink) => clip.stream(sink));
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
