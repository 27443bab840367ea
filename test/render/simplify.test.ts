import type { LineString, Polygon, Position } from 'geojson';
import { describe, expect, it } from 'vitest';
import { simplifyShape } from '../../src/geometry/simplify.ts';
import { shapeToGeoJson } from '../../src/geometry/to-geojson.ts';
import type { Geometry } from '../../src/geometry/types.ts';
import { shapeOf } from '../support/shapes.ts';

/** The server's Douglas–Peucker (on flat shapes), seen through GeoJSON. */
const simplifyGeometry = (geometry: Geometry, tolerance: number): Geometry => {
  const simplified = shapeToGeoJson(simplifyShape(shapeOf(geometry), tolerance))!;
  if (simplified.type === 'MultiLineString') return { type: 'LineString', coordinates: simplified.coordinates[0] };
  if (simplified.type === 'MultiPolygon') return { type: 'Polygon', coordinates: simplified.coordinates.flat() };
  return simplified;
};

/** A wiggly line along x: every vertex 0.1 off the axis, alternately up and down. */
function wigglyLine(vertices: number): Position[] {
  return Array.from({ length: vertices }, (_, i) => [i, i % 2 === 0 ? 0.1 : -0.1]);
}

/** A circle-ish ring of n vertices, closed. */
function ring(n: number, radius: number): Position[] {
  const positions = Array.from({ length: n }, (_, i): Position => {
    const angle = (2 * Math.PI * i) / n;
    return [radius * Math.cos(angle), radius * Math.sin(angle)];
  });
  return [...positions, positions[0]];
}

describe('simplifyShape', () => {
  it('returns the input itself at tolerance 0', () => {
    const line = shapeOf({ type: 'LineString', coordinates: wigglyLine(100) });
    expect(simplifyShape(line, 0)).toBe(line);
  });

  it('drops vertices within the tolerance and keeps both ends (and the end of each 4096-vertex window)', () => {
    const coordinates = wigglyLine(10_000);
    const simplified = simplifyGeometry({ type: 'LineString', coordinates }, 0.5) as LineString;
    expect(simplified.coordinates).toEqual([0, 4096, 8192, 9999].map((i) => coordinates[i]));
  });

  it('looks at each vertex a bounded number of times, keeping what a line it cannot settle in that time has', () => {
    // A zigzag that makes every split cut off one vertex: plain Douglas–Peucker would look
    // at each vertex thousands of times here (seconds); within its bound it keeps them.
    const zigzag: Position[] = Array.from({ length: 200_000 }, (_, i) => [i * 1e-3, (i % 2) * 10 + i * 1e-4]);
    const simplified = simplifyGeometry({ type: 'LineString', coordinates: zigzag }, 1e-6) as LineString;
    expect(simplified.coordinates.length).toBe(zigzag.length);
  });

  it('keeps vertices that stand out more than the tolerance', () => {
    const coordinates: Position[] = [[0, 0], [1, 0.01], [2, 5], [3, 0.01], [4, 0]];
    const simplified = simplifyGeometry({ type: 'LineString', coordinates }, 1) as LineString;
    expect(simplified.coordinates).toEqual([[0, 0], [2, 5], [4, 0]]);
  });

  it('never collapses a ring below a closed triangle', () => {
    const polygon: Polygon = { type: 'Polygon', coordinates: [ring(50, 1), ring(20, 0.5)] };
    const simplified = simplifyGeometry(polygon, 100) as Polygon;
    for (const simplifiedRing of simplified.coordinates) {
      expect(simplifiedRing).toHaveLength(4);
      expect(simplifiedRing[0]).toEqual(simplifiedRing[3]);
      expect(new Set(simplifiedRing.slice(0, 3).map(String)).size).toBe(3);
    }
  });

  it('simplifies a million-vertex ring without running out of stack', () => {
    const big = ring(1_000_000, 1000);
    const simplified = simplifyGeometry({ type: 'Polygon', coordinates: [big] }, 0.01) as Polygon;
    const kept = simplified.coordinates[0];
    expect(kept.length).toBeGreaterThan(4);
    expect(kept.length).toBeLessThan(10_000);
    expect(kept[0]).toEqual(big[0]);
    expect(kept[kept.length - 1]).toEqual(big[big.length - 1]);
  });

  it('leaves points alone', () => {
    const points: Geometry = { type: 'MultiPoint', coordinates: [[0, 0], [0, 0.001], [5, 5]] };
    expect(simplifyGeometry(points, 10)).toEqual(points);
  });
});
