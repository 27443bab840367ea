import type { Position } from 'geojson';
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
  return geographic ? mapPositions(geometry, lonLatToWebMercator) : geometry;
}

export function lonLatToWebMercator([lon, lat]: Position): Position {
  const clamped = Math.max(-MAX_MERCATOR_LATITUDE, Math.min(MAX_MERCATOR_LATITUDE, lat));
  return [EARTH_RADIUS * lon * RADIANS, EARTH_RADIUS * Math.log(Math.tan(Math.PI / 4 + (clamped * RADIANS) / 2))];
}

function mapPositions(geometry: Geometry, map: (position: Position) => Position): Geometry {
  const line = (positions: Position[]) => positions.map(map);
  switch (geometry.type) {
    case 'Point':
      return { type: 'Point', coordinates: map(geometry.coordinates) };
    case 'MultiPoint':
      return { type: 'MultiPoint', coordinates: line(geometry.coordinates) };
    case 'LineString':
      return { type: 'LineString', coordinates: line(geometry.coordinates) };
    case 'MultiLineString':
      return { type: 'MultiLineString', coordinates: geometry.coordinates.map(line) };
    case 'Polygon':
      return { type: 'Polygon', coordinates: geometry.coordinates.map(line) };
    case 'MultiPolygon':
      return { type: 'MultiPolygon', coordinates: geometry.coordinates.map((polygon) => polygon.map(line)) };
  }
}
