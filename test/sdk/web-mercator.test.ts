import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { lonLatToWorldPixel, mercatorX, mercatorY, toLonLat, viewBoundsInMetres, worldPixelToLonLat, worldSize } from '../../src/sdk/plugin.ts';
import { viewAt } from '../support/basemap.ts';

/** The SDK's Web Mercator against proj4's EPSG:3857 and the tile scheme's own arithmetic. */
describe('Web Mercator in the plugin SDK', () => {
  const places = [
    [5.1214, 52.0907],
    [-74.006, 40.7128],
    [151.2093, -33.8688],
    [0, 0],
  ];

  it('agrees with proj4 on metres, both ways', () => {
    for (const [lon, lat] of places) {
      const [x, y] = proj4('EPSG:4326', 'EPSG:3857', [lon, lat]);
      expect(mercatorX(lon)).toBeCloseTo(x, 6);
      expect(mercatorY(lat)).toBeCloseTo(y, 6);
      const back = toLonLat({ x, y });
      expect(back.lon).toBeCloseTo(lon, 9);
      expect(back.lat).toBeCloseTo(lat, 9);
    }
  });

  it('puts degrees on the world pixels of the tile scheme, and back', () => {
    expect(worldSize(3)).toBe(2048);
    expect(lonLatToWorldPixel(-180, 85.0511287798066, 3)).toEqual({ x: 0, y: expect.closeTo(0, 6) });
    for (const [lon, lat] of places) {
      const { x, y } = lonLatToWorldPixel(lon, lat, 12);
      const view = viewAt(12, x, y, 1, 1);
      expect(view.bounds.west).toBeCloseTo(lon, 9);
      expect(view.bounds.north).toBeCloseTo(lat, 9);
      const back = worldPixelToLonLat(x, y, 12);
      expect([back.lon, back.lat].map((value) => value.toFixed(9))).toEqual([lon, lat].map((value) => value.toFixed(9)));
    }
  });

  it("gives a view's bounds in metres, as a WMS BBOX wants them", () => {
    const view = viewAt(10, 134_000, 86_000, 640, 480);
    const box = viewBoundsInMetres(view);
    const [west, north] = proj4('EPSG:4326', 'EPSG:3857', [view.bounds.west, view.bounds.north]);
    const [east, south] = proj4('EPSG:4326', 'EPSG:3857', [view.bounds.east, view.bounds.south]);
    expect(box.xmin).toBeCloseTo(west, 3);
    expect(box.ymax).toBeCloseTo(north, 3);
    expect(box.xmax).toBeCloseTo(east, 3);
    expect(box.ymin).toBeCloseTo(south, 3);
  });
});
