import type { Position } from 'geojson';
import type { Geometry } from './types.ts';

/** What a list of positions is: points (unconnected), a line, or a closed polygon ring. */
export type PositionListKind = 'points' | 'line' | 'ring';

/** A geometry of the same type whose every position list went through `map`. */
export function mapPositionLists(
  geometry: Geometry,
  map: (positions: Position[], kind: PositionListKind) => Position[],
): Geometry {
  const line = (positions: Position[]) => map(positions, 'line');
  const ring = (positions: Position[]) => map(positions, 'ring');
  switch (geometry.type) {
    case 'Point':
      return { type: 'Point', coordinates: map([geometry.coordinates], 'points')[0] };
    case 'MultiPoint':
      return { type: 'MultiPoint', coordinates: map(geometry.coordinates, 'points') };
    case 'LineString':
      return { type: 'LineString', coordinates: line(geometry.coordinates) };
    case 'MultiLineString':
      return { type: 'MultiLineString', coordinates: geometry.coordinates.map(line) };
    case 'Polygon':
      return { type: 'Polygon', coordinates: geometry.coordinates.map(ring) };
    case 'MultiPolygon':
      return { type: 'MultiPolygon', coordinates: geometry.coordinates.map((polygon) => polygon.map(ring)) };
  }
}
