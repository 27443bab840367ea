import type { Position } from 'geojson';
import { mapPositionLists } from '../geometry/map-coordinates.ts';
import type { Geometry } from '../geometry/types.ts';

const EARTH_RADIUS = 6378137;
/** The latitude at which Web Mercator's square world ends. */
export const MAX_MERCATOR_LATITUDE = 85.0511287798066;
const RADIANS = Math.PI / 180;

/**
 * Maps a geometry from shapefile units into the drawing space: a projected CRS is drawn as
 * it is, lon/lat goes to Web Mercator metres (EPSG:3857) so shapes look as they do on maps.
 * Longitudes are not wrapped: the literal extent is drawn.
 */
export function toDrawingSpace(geometry: Geometry, geographic: boolean): Geometry {
  return geographic ? mapPositionLists(geometry, (positions) => positions.map(lonLatToWebMercator)) : geometry;
}

export function lonLatToWebMercator([lon, lat]: Position): Position {
  const clamped = Math.max(-MAX_MERCATOR_LATITUDE, Math.min(MAX_MERCATOR_LATITUDE, lat));
  return [EARTH_RADIUS * lon * RADIANS, EARTH_RADIUS * Math.log(Math.tan(Math.PI / 4 + (clamped * RADIANS) / 2))];
}
