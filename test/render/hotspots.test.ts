import type { Position } from 'geojson';
import { describe, expect, it } from 'vitest';
import type { Geometry } from '../../src/geometry/types.ts';
import { type HotSpot, hotSpotsFor } from '../../src/hotspots/hotspots.ts';
import { fitExtent } from '../../src/projection/fit.ts';
import { toPixels } from '../../src/projection/pixels.ts';
import { shapeOf } from '../support/shapes.ts';

const IMAGE = { width: 640, height: 480, lineWidth: 2, pointRadius: 5 };
/** Drawing units 0…10 on both axes land on x 92…548, y 468…12. */
const TRANSFORM = fitExtent({ xmin: 0, ymin: 0, xmax: 10, ymax: 10 }, 640, 480, 12);

function hotSpots(geometry: Geometry, image = IMAGE): HotSpot[] {
  const noCheckpoint = () => undefined;
  return hotSpotsFor([{ fid: '5.2', featureId: 5, pixels: toPixels(shapeOf(geometry), TRANSFORM, 1, noCheckpoint) }], image, noCheckpoint);
}

function points(hotSpot: HotSpot): [number, number][] {
  const numbers = hotSpot.Coords.split(',').map(Number);
  return Array.from({ length: numbers.length / 2 }, (_, i) => [numbers[2 * i], numbers[2 * i + 1]]);
}

function square(x0: number, y0: number, size: number): Position[] {
  return [[x0, y0], [x0 + size, y0], [x0 + size, y0 + size], [x0, y0 + size], [x0, y0]];
}

describe('hotSpotsFor', () => {
  it('gives a polygon a poly of whole pixels along its outer ring, and none for its hole', () => {
    const spots = hotSpots({ type: 'Polygon', coordinates: [square(0, 0, 10), square(4, 4, 2)] });
    expect(spots).toEqual([{ FeatureId: 5, Fid: '5.2', Shape: 'poly', Coords: '92,468,548,468,548,12,92,12' }]);
  });

  it('gives each polygon of a multipolygon its own poly', () => {
    const spots = hotSpots({ type: 'MultiPolygon', coordinates: [[square(0, 0, 2)], [square(8, 8, 2)]] });
    expect(spots.map((spot) => spot.Shape)).toEqual(['poly', 'poly']);
  });

  it('simplifies a polygon of many vertices to about a pixel', () => {
    const n = 100_000;
    const ring = Array.from({ length: n + 1 }, (_, i): Position => {
      const angle = (2 * Math.PI * i) / n;
      return [5 + 5 * Math.cos(angle), 5 + 5 * Math.sin(angle)];
    });
    const [spot] = hotSpots({ type: 'Polygon', coordinates: [ring] });
    const corners = points(spot);
    expect(corners.length).toBeGreaterThan(20);
    expect(corners.length).toBeLessThan(200);
    for (const [x, y] of corners) expect(Math.hypot(x - 320, y - 240)).toBeCloseTo(228, -0.5);
  });

  it('outlines a line at least 8 px wide', () => {
    const [spot] = hotSpots({ type: 'LineString', coordinates: [[0, 5], [10, 5]] });
    expect(spot.Shape).toBe('poly');
    const ys = points(spot).map(([, y]) => y);
    const xs = points(spot).map(([x]) => x);
    expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThanOrEqual(8);
    expect(Math.min(...xs)).toBeLessThanOrEqual(92);
    expect(Math.max(...xs)).toBeGreaterThanOrEqual(548);
  });

  it('outlines a line as wide as its stroke when that is wider', () => {
    const [spot] = hotSpots({ type: 'LineString', coordinates: [[5, 0], [5, 10]] }, { ...IMAGE, lineWidth: 20 });
    const xs = points(spot).map(([x]) => x);
    expect(Math.max(...xs) - Math.min(...xs)).toBe(20);
  });

  it('follows a bent line on both sides', () => {
    const [spot] = hotSpots({ type: 'LineString', coordinates: [[0, 0], [5, 10], [10, 0]] });
    const outline = points(spot);
    expect(outline.length).toBeGreaterThanOrEqual(6);
    // Nothing of the area lies in the middle of the V, far below its apex.
    expect(outline.some(([x, y]) => Math.abs(x - 320) < 20 && y > 100)).toBe(false);
  });

  it('gives each point a circle at least 8 px across', () => {
    const spots = hotSpots({ type: 'MultiPoint', coordinates: [[0, 0], [10, 10]] }, { ...IMAGE, pointRadius: 1, lineWidth: 0 });
    expect(spots.map((spot) => [spot.Shape, spot.Coords])).toEqual([
      ['circle', '92,468,4'],
      ['circle', '548,12,4'],
    ]);
    const [big] = hotSpots({ type: 'Point', coordinates: [5, 5] }, { ...IMAGE, pointRadius: 6, lineWidth: 2 });
    expect(big.Coords).toBe('320,240,7');
  });

  it('clamps coordinates to the image and leaves out areas wholly outside it', () => {
    const [partly] = hotSpots({ type: 'Polygon', coordinates: [square(-10, -10, 15)] });
    for (const [x, y] of points(partly)) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(640);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(480);
    }
    expect(hotSpots({ type: 'Polygon', coordinates: [square(100, 100, 1)] })).toEqual([]);
    expect(hotSpots({ type: 'Point', coordinates: [-50, 5] })).toEqual([]);
  });

  it('keeps a polygon too small to see clickable', () => {
    const [spot] = hotSpots({ type: 'Polygon', coordinates: [square(5, 5, 0.001)] });
    // Centred on the pixels it paints (projection/pixels.ts): it lies on the edge of pixel rows 239 and 240, so both.
    expect(spot).toEqual({ FeatureId: 5, Fid: '5.2', Shape: 'circle', Coords: '321,240,4' });
  });
});
