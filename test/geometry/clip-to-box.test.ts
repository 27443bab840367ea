/**
 * Shapes cut to a picture's box before drawing (src/geometry/clip-to-box.ts): what is inside
 * stays exactly, lines come apart where they leave, rings keep their area inside, holes go
 * with their polygon.
 */
import { describe, expect, it } from 'vitest';
import { clipToBox } from '../../src/geometry/clip-to-box.ts';
import { linesShape, pointsShape, polygonsShape } from '../../src/geometry/shape.ts';

const BOX = { xmin: 0, ymin: 0, xmax: 10, ymax: 10 };

/** Twice the signed area of each ring. */
function ringAreas(shape: ReturnType<typeof clipToBox>): number[] {
  const areas: number[] = [];
  for (let ring = 0; ring + 1 < shape.parts.length; ring++) {
    let twice = 0;
    for (let v = shape.parts[ring]; v + 1 < shape.parts[ring + 1]; v++) twice += shape.xy[2 * v] * shape.xy[2 * v + 3] - shape.xy[2 * v + 2] * shape.xy[2 * v + 1];
    areas.push(twice / 2);
  }
  return areas;
}

describe('clipping to a box', () => {
  it('returns a shape wholly inside as it is, and nothing of a shape wholly outside', () => {
    const inside = linesShape(Float64Array.of(1, 1, 9, 9), Uint32Array.of(0, 2));
    expect(clipToBox(inside, BOX)).toBe(inside);
    expect(clipToBox(linesShape(Float64Array.of(20, 20, 30, 30), Uint32Array.of(0, 2)), BOX).xy.length).toBe(0);
  });

  it('cuts a line into the pieces inside the box', () => {
    // In, out over the top, back in, out to the right.
    const line = linesShape(Float64Array.of(2, 5, 5, 15, 8, 5, 20, 5), Uint32Array.of(0, 4));
    const clipped = clipToBox(line, BOX);
    expect(Array.from(clipped.parts)).toEqual([0, 2, 5]);
    expect(Array.from(clipped.xy)).toEqual([2, 5, 3.5, 10, 6.5, 10, 8, 5, 10, 5]);
  });

  it("keeps each ring's area inside the box and its winding, and drops a polygon whose outer ring is gone with its holes", () => {
    // A square from -5 to 5 with a hole from 1 to 3, and a square far outside with a hole.
    const xy = Float64Array.of(-5, -5, -5, 5, 5, 5, 5, -5, -5, -5, 1, 1, 3, 1, 3, 3, 1, 3, 1, 1, 50, 50, 50, 60, 60, 60, 60, 50, 50, 50, 52, 52, 54, 52, 54, 54, 52, 52);
    const shape = polygonsShape(xy, Uint32Array.of(0, 5, 10, 15, 19), Uint32Array.of(0, 2, 4));
    const clipped = clipToBox(shape, BOX);
    expect(Array.from(clipped.polygons)).toEqual([0, 2]);
    expect(ringAreas(clipped)).toEqual([-25, 4]);
  });

  it('keeps the points inside', () => {
    expect(Array.from(clipToBox(pointsShape(Float64Array.of(1, 1, 11, 1, 5, 5)), BOX).xy)).toEqual([1, 1, 5, 5]);
  });
});
