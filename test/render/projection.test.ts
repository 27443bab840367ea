import type { Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { shapesBBox } from '../../src/geometry/shape.ts';
import { toDrawingSpace } from '../../src/projection/drawing-space.ts';
import { fitExtent, toPixel } from '../../src/projection/fit.ts';
import { shapeOf } from '../support/shapes.ts';

describe('fitExtent', () => {
  it('fits the extent inside the buffer on the tighter axis and centres the other', () => {
    const transform = fitExtent({ xmin: 0, ymin: 0, xmax: 10, ymax: 10 }, 640, 480, 12);
    expect(toPixel(transform, 0, 10)).toEqual([92, 12]);
    expect(toPixel(transform, 10, 0)).toEqual([548, 468]);
  });

  it('centres a single point', () => {
    const transform = fitExtent({ xmin: 5, ymin: 7, xmax: 5, ymax: 7 }, 640, 480, 12);
    expect(toPixel(transform, 5, 7)).toEqual([320, 240]);
  });

  it('fits a horizontal line on its length alone', () => {
    const transform = fitExtent({ xmin: -3, ymin: 2, xmax: 3, ymax: 2 }, 640, 480, 20);
    expect(toPixel(transform, -3, 2)).toEqual([20, 240]);
    expect(toPixel(transform, 3, 2)).toEqual([620, 240]);
  });

  it('keeps a tiny extent far from the origin precise', () => {
    const transform = fitExtent({ xmin: 1e7, ymin: 5e6, xmax: 1e7 + 1e-4, ymax: 5e6 + 1e-4 }, 100, 100, 0);
    const [x, y] = toPixel(transform, 1e7 + 1e-4, 5e6);
    expect(x).toBeCloseTo(100, 1);
    expect(y).toBeCloseTo(100, 1);
  });
});

describe('toDrawingSpace', () => {
  const square: Polygon = { type: 'Polygon', coordinates: [[[0, 60], [10, 60], [10, 70], [0, 70], [0, 60]]] };

  it('draws a projected CRS as it is', () => {
    const shape = shapeOf(square);
    expect(toDrawingSpace(shape, false)).toBe(shape);
  });

  it('draws lon/lat in Web Mercator: a degree square at 60–70° N is taller than wide', () => {
    const box = shapesBBox([toDrawingSpace(shapeOf(square), true)])!;
    expect(box.xmax - box.xmin).toBeCloseTo(1113194.9, 0);
    expect(box.ymin).toBeCloseTo(8399737.9, 0);
    expect((box.ymax - box.ymin) / (box.xmax - box.xmin)).toBeGreaterThan(2);
  });

  it('clamps latitudes to the edge of the Web Mercator world without wrapping longitudes', () => {
    const box = shapesBBox([toDrawingSpace(shapeOf({ type: 'LineString', coordinates: [[170, 0], [190, 90]] }), true)])!;
    expect(box.ymax).toBeCloseTo(20037508.34, 0);
    expect(box.xmax).toBeCloseTo((190 / 180) * 20037508.34, 0);
  });
});
