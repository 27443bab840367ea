/** GeoJSON geometry as the flat shapes the drawing pipeline carries (for tests that state geometry as GeoJSON). */
import type { Position } from 'geojson';
import { linesShape, pointsShape, polygonsShape, type Shape } from '../../src/geometry/shape.ts';
import type { Geometry } from '../../src/geometry/types.ts';

export function shapeOf(geometry: Geometry): Shape {
  switch (geometry.type) {
    case 'Point':
      return pointsShape(Float64Array.from(geometry.coordinates.slice(0, 2)));
    case 'MultiPoint':
      return pointsShape(flat(geometry.coordinates));
    case 'LineString':
      return linesShape(flat(geometry.coordinates), starts([geometry.coordinates]));
    case 'MultiLineString':
      return linesShape(flat(geometry.coordinates.flat()), starts(geometry.coordinates));
    case 'Polygon':
      return polygonsShape(flat(geometry.coordinates.flat()), starts(geometry.coordinates), Uint32Array.of(0, geometry.coordinates.length));
    case 'MultiPolygon': {
      const rings = geometry.coordinates.flat();
      const polygons = [0];
      for (const polygon of geometry.coordinates) polygons.push(polygons[polygons.length - 1] + polygon.length);
      return polygonsShape(flat(rings.flat()), starts(rings), Uint32Array.from(polygons));
    }
  }
}

function flat(positions: Position[]): Float64Array {
  return Float64Array.from(positions.flatMap(([x, y]) => [x, y]));
}

function starts(parts: Position[][]): Uint32Array {
  const result = [0];
  for (const part of parts) result.push(result[result.length - 1] + part.length);
  return Uint32Array.from(result);
}
