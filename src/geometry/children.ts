/**
 * Child `c` of a feature (decisions.md, "Feature ids"): the c-th polygon (outer ring with
 * its holes) of a Polygon shape, the c-th part of a PolyLine, the c-th point of a
 * MultiPoint; a single-part feature's only child, 0, is the feature itself.
 */
import type { Geometry } from './types.ts';

export function childOf(geometry: Geometry, child: number): Geometry | undefined {
  if (!Number.isInteger(child) || child < 0) return undefined;
  switch (geometry.type) {
    case 'Point':
    case 'LineString':
    case 'Polygon':
      return child === 0 ? geometry : undefined;
    case 'MultiPoint': {
      const point = geometry.coordinates[child];
      return point && { type: 'Point', coordinates: point };
    }
    case 'MultiLineString': {
      const line = geometry.coordinates[child];
      return line && { type: 'LineString', coordinates: line };
    }
    case 'MultiPolygon': {
      const polygon = geometry.coordinates[child];
      return polygon && { type: 'Polygon', coordinates: polygon };
    }
  }
}
