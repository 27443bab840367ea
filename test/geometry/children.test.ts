import { describe, expect, it } from 'vitest';
import { childOf } from '../../src/geometry/children.ts';
import type { Geometry } from '../../src/geometry/types.ts';

const outerA = [[0, 0], [0, 10], [10, 10], [10, 0], [0, 0]];
const holeA = [[2, 2], [4, 2], [4, 4], [2, 4], [2, 2]];
const outerB = [[20, 0], [20, 5], [25, 5], [25, 0], [20, 0]];

describe('childOf', () => {
  it('gives the c-th polygon of a multi-polygon, with its holes', () => {
    const geometry: Geometry = { type: 'MultiPolygon', coordinates: [[outerA, holeA], [outerB]] };
    expect(childOf(geometry, 0)).toEqual({ type: 'Polygon', coordinates: [outerA, holeA] });
    expect(childOf(geometry, 1)).toEqual({ type: 'Polygon', coordinates: [outerB] });
    expect(childOf(geometry, 2)).toBeUndefined();
  });

  it('gives the c-th part of a multi-line and the c-th point of a multi-point', () => {
    const lines: Geometry = { type: 'MultiLineString', coordinates: [[[0, 0], [1, 1]], [[5, 5], [6, 6]]] };
    expect(childOf(lines, 1)).toEqual({ type: 'LineString', coordinates: [[5, 5], [6, 6]] });
    expect(childOf(lines, 2)).toBeUndefined();
    const points: Geometry = { type: 'MultiPoint', coordinates: [[1, 2], [3, 4], [5, 6]] };
    expect(childOf(points, 2)).toEqual({ type: 'Point', coordinates: [5, 6] });
    expect(childOf(points, 3)).toBeUndefined();
  });

  it.each<Geometry>([
    { type: 'Point', coordinates: [1, 2] },
    { type: 'LineString', coordinates: [[0, 0], [1, 1]] },
    { type: 'Polygon', coordinates: [outerA, holeA] },
  ])('gives a single-part $type itself as child 0 and nothing else', (geometry) => {
    expect(childOf(geometry, 0)).toBe(geometry);
    expect(childOf(geometry, 1)).toBeUndefined();
  });

  it('has no negative or fractional children', () => {
    const points: Geometry = { type: 'MultiPoint', coordinates: [[1, 2], [3, 4]] };
    expect(childOf(points, -1)).toBeUndefined();
    expect(childOf(points, 0.5)).toBeUndefined();
  });
});
