/**
 * Shapes as GeoJSON geometry, the form both d3-geo's path writer (svg/features.ts) and /ogc's
 * features (ogc-jobs/geojson-feature.ts) take: one conversion, so that a feature's SVG and its
 * GeoJSON drop the same empty parts and close the same rings.
 */
import type { Position } from 'geojson';
import type { Shape } from './shape.ts';
import type { Geometry } from './types.ts';

/**
 * A shape as GeoJSON geometry, for d3-geo's path writer: a points shape as a MultiPoint,
 * lines as a MultiLineString, polygons as a MultiPolygon with every ring closed. Empty
 * parts (points thinned away) are left out; undefined when nothing is left.
 */
export function shapeToGeoJson(shape: Shape): Geometry | undefined {
  const part = (index: number): Position[] => {
    const positions: Position[] = [];
    for (let i = shape.parts[index]; i < shape.parts[index + 1]; i++) positions.push([shape.xy[2 * i], shape.xy[2 * i + 1]]);
    return positions;
  };
  const partCount = shape.parts.length - 1;
  switch (shape.kind) {
    case 'points': {
      const coordinates = Array.from({ length: partCount }, (_, i) => part(i)).flat();
      return coordinates.length > 0 ? { type: 'MultiPoint', coordinates } : undefined;
    }
    case 'lines': {
      const coordinates = Array.from({ length: partCount }, (_, i) => part(i)).filter((line) => line.length > 1);
      return coordinates.length > 0 ? { type: 'MultiLineString', coordinates } : undefined;
    }
    case 'polygons': {
      const coordinates: Position[][][] = [];
      for (let polygon = 0; polygon < shape.polygons.length - 1; polygon++) {
        const rings: Position[][] = [];
        for (let ring = shape.polygons[polygon]; ring < shape.polygons[polygon + 1]; ring++) {
          const positions = part(ring);
          if (positions.length === 0) continue;
          const [first, last] = [positions[0], positions[positions.length - 1]];
          if (first[0] !== last[0] || first[1] !== last[1]) positions.push(first);
          rings.push(positions);
        }
        if (rings.length > 0) coordinates.push(rings);
      }
      return coordinates.length > 0 ? { type: 'MultiPolygon', coordinates } : undefined;
    }
  }
}
