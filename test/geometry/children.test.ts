import { describe, expect, it } from 'vitest';
import { childShape } from '../../src/geometry/shape.ts';
import { shapeToGeoJson } from '../../src/geometry/to-geojson.ts';
import type { Geometry } from '../../src/geometry/types.ts';
import { shapeOf } from '../support/shapes.ts';

const outerA = [[0, 0], [0, 10], [10, 10], [10, 0], [0, 0]];
const holeA = [[2, 2], [4, 2], [4, 4], [2, 4], [2, 2]];
const outerB = [[20, 0], [20, 5], [25, 5], [25, 0], [20, 0]];

/** Child `c` of `geometry`, as GeoJSON (multi-types, as the drawing pipeline writes them). */
const child = (geometry: Geometry, c: number) => {
  const shape = childShape(shapeOf(geometry), c);
  return shape && shapeToGeoJson(shape);
};

describe('childShape', () => {
  it('gives the c-th polygon of a multi-polygon, with its holes', () => {
    const geometry: Geometry = { type: 'MultiPolygon', coordinates: [[outerA, holeA], [outerB]] };
    expect(child(geometry, 0)).toEqual({ type: 'MultiPolygon', coordinates: [[outerA, holeA]] });
    expect(child(geometry, 1)).toEqual({ type: 'MultiPolygon', coordinates: [[outerB]] });
    expect(child(geometry, 2)).toBeUndefined();
  });

  it('gives the c-th part of a multi-line and the c-th point of a multi-point', () => {
    const lines: Geometry = { type: 'MultiLineString', coordinates: [[[0, 0], [1, 1]], [[5, 5], [6, 6]]] };
    expect(child(lines, 1)).toEqual({ type: 'MultiLineString', coordinates: [[[5, 5], [6, 6]]] });
    expect(child(lines, 2)).toBeUndefined();
    const points: Geometry = { type: 'MultiPoint', coordinates: [[1, 2], [3, 4], [5, 6]] };
    expect(child(points, 2)).toEqual({ type: 'MultiPoint', coordinates: [[5, 6]] });
    expect(child(points, 3)).toBeUndefined();
  });

  it.each<Geometry>([
    { type: 'Point', coordinates: [1, 2] },
    { type: 'LineString', coordinates: [[0, 0], [1, 1]] },
    { type: 'Polygon', coordinates: [outerA, holeA] },
  ])('gives a single-part $type itself as child 0 and nothing else', (geometry) => {
    const shape = shapeOf(geometry);
    expect(childShape(shape, 0)).toBe(shape);
    expect(childShape(shape, 1)).toBeUndefined();
  });

  it('has no negative or fractional children', () => {
    const points = shapeOf({ type: 'MultiPoint', coordinates: [[1, 2], [3, 4]] });
    expect(childShape(points, -1)).toBeUndefined();
    expect(childShape(points, 0.5)).toBeUndefined();
  });
});
