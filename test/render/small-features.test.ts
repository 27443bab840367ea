/**
 * Every feature in view is drawn (docs/api.md, "How features are drawn"): a polygon smaller than a pixel paints
 * the pixels it touches, however many there are; points are stamped, and a stamp draws what
 * resvg draws of the same symbol.
 */
import { describe, expect, it } from 'vitest';
import { stampedPixels } from '../../src/drawing/point-symbols.ts';
import { checkDrawnShapes } from '../../src/drawing/picture-budget.ts';
import { BadRequestError } from '../../src/errors.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { pointsShape, polygonsShape, type Shape } from '../../src/geometry/shape.ts';
import { packShapes } from '../../src/geometry/packed-shapes.ts';
import type { PixelTransform } from '../../src/projection/fit.ts';
import { toPixels } from '../../src/projection/pixels.ts';
import { renderPixels } from '../../src/raster/rasterize.ts';
import { nativeRasterizer } from '../../src/raster/resvg.js';
import { renderSvg } from '../../src/svg/render-svg.ts';
import type { DrawStyle, Rgba } from '../../src/svg/style.ts';

const TRANSPARENT: Rgba = { r: 0, g: 0, b: 0, a: 0 };
const STYLE: DrawStyle = {
  lineColor: { r: 255, g: 0, b: 0, a: 1 },
  lineWidth: 0,
  fillColor: { r: 0, g: 0, b: 255, a: 1 },
  fillOpacity: 1,
  pointRadius: 4,
  background: { color1: TRANSPARENT, angle: 0 },
};
/** Pixels are the shapes' own units: x right, y down from the top-left corner. */
const IDENTITY: PixelTransform = { scale: 1, centreX: 0, centreY: 0, pixelCentreX: 0, pixelCentreY: 0 };
const resvg = await nativeRasterizer();
const noCheckpoint = () => undefined;

/** A square ring of side `side` at (x, y), in pixels with y up, as a shapefile's coordinates are. */
function square(x: number, y: number, side: number): Shape {
  return polygonsShape(Float64Array.of(x, -y, x, -(y + side), x + side, -(y + side), x + side, -y, x, -y), Uint32Array.of(0, 5), Uint32Array.of(0, 1));
}

/** The alpha of every pixel of `shapes` drawn at `width` × `height` at scale `pixelRatio`. */
function alphas(shapes: Shape[], width: number, height: number, pixelRatio = 1, style: Partial<DrawStyle> = {}): Uint8Array {
  const pixels = shapes.map((shape) => toPixels(shape, IDENTITY, pixelRatio, noCheckpoint));
  const svg = renderSvg({ width, height, style: { ...STYLE, ...style }, shapes: pixels, pixelRatio });
  const rgba = renderPixels(resvg, svg, { width, height, pixelRatio, fonts: [] });
  return Uint8Array.from({ length: rgba.length / 4 }, (_, i) => rgba[4 * i + 3]);
}

describe('a polygon smaller than a pixel', () => {
  it('paints the one pixel it lies in, opaque', () => {
    const painted = alphas([square(3.3, 5.6, 0.01)], 10, 10);
    expect([...painted.keys()].filter((i) => painted[i] > 0)).toEqual([5 * 10 + 3]);
    expect(painted[5 * 10 + 3]).toBe(255);
  });

  it('paints every real pixel its box touches, at every scale', () => {
    // From 2.9 to 3.05 across: columns 2 and 3 at scale 1; at scale 2 real columns 5 and 6.
    // At scale 2 the 20 × 20 real pixels hold it from 5.8 to 6.1 across, in row 4.
    for (const [pixelRatio, expected] of [[1, [22, 23]], [2, [4 * 20 + 5, 4 * 20 + 6]]] as const) {
      const painted = alphas([square(2.9, 2.3, 0.15)], 10, 10, pixelRatio);
      expect([...painted.keys()].filter((i) => painted[i] > 0)).toEqual(expected);
    }
  });

  it('is drawn however many there are: 100,000 of them on 250,000 pixels, each pixel they lie in painted', () => {
    const squares: Shape[] = [];
    const expected = new Set<number>();
    for (let i = 0; i < 100_000; i++) {
      // A scatter with repeats and neighbours, none of it on a pixel's edge.
      const x = (i * 7919) % 500 + ((i * 31) % 9) / 10 + 0.05;
      const y = ((i * 104_729) % 500) + ((i * 17) % 9) / 10 + 0.05;
      squares.push(square(x, y, 0.02));
      expected.add(Math.floor(y) * 500 + Math.floor(x));
    }
    const painted = alphas(squares, 500, 500);
    const paintedPixels = [...painted.keys()].filter((i) => painted[i] > 0);
    expect(paintedPixels.length).toBe(expected.size);
    expect(paintedPixels.every((i) => expected.has(i))).toBe(true);
  });

  it('as a hole, leaves its polygon painted (the hole shows at no pixel)', () => {
    const outer = [0, 0, 0, -8, 8, -8, 8, 0, 0, 0];
    const hole = [4.2, -4.2, 4.3, -4.2, 4.3, -4.3, 4.2, -4.3, 4.2, -4.2];
    const withHole = polygonsShape(Float64Array.from([...outer, ...hole]), Uint32Array.of(0, 5, 10), Uint32Array.of(0, 2));
    expect(alphas([withHole], 8, 8)[4 * 8 + 4]).toBe(255);
  });
});

describe('points stamped', () => {
  const width = 60;
  const height = 40;
  const style: DrawStyle = { ...STYLE, lineWidth: 2, fillColor: { r: 0, g: 0, b: 255, a: 0.2 } };

  /** The same points drawn by resvg from the SVG answer's paths, and stamped. */
  function bothWays(points: number[][], pixelRatio: number) {
    const shapes = points.map(([x, y]) => pointsShape(Float64Array.of(x, y)));
    const options = { width, height, pixelRatio, fonts: [] };
    const byResvg = renderPixels(resvg, renderSvg({ width, height, style, shapes, pixelRatio }), options);
    const below = renderSvg({ width, height, style, shapes: [], pixelRatio });
    return { byResvg, stamped: stampedPixels(resvg, { below, points: packShapes(shapes), style }, options, noCheckpoint) };
  }

  for (const pixelRatio of [1, 2]) {
    it(`draw exactly what resvg draws where both place a symbol alike (half pixels), at scale ${pixelRatio}`, () => {
      const { byResvg, stamped } = bothWays([[10, 10], [20.5, 10.5], [30, 20.5], [45, 30]], pixelRatio);
      expect(stamped).toEqual(byResvg);
    });

    // Symbols cut by the edges are here: resvg itself draws a shape that nears its canvas's edge a
    // little differently. Where symbols overlap, a stamp (fill and outline blended once) rounds apart
    // from resvg's fill, then outline, blended each in turn.
    it(`draw elsewhere what resvg draws, moved by at most an eighth of a pixel, at scale ${pixelRatio}`, () => {
      const points = [[10.1, 10.3], [20.3, 10.6], [30.1, 20.9], [44.875, 30.3], [0.4, 20.2], [59.5, 39.5], [15, 30], [16, 31]];
      const { byResvg, stamped } = bothWays(points, pixelRatio);
      let painted = 0;
      let agree = 0;
      for (let i = 3; i < byResvg.length; i += 4) {
        if (byResvg[i] > 0 || stamped[i] > 0) painted++;
        if (byResvg[i] > 0 && stamped[i] > 0) agree++;
      }
      expect(agree / painted).toBeGreaterThan(0.9);
      expect(Math.max(...byResvg.map((channel, i) => Math.abs(channel - stamped[i])))).toBeLessThanOrEqual(128);
    });
  }
});

describe('what one picture can draw', () => {
  it('is at most 500,000 lines or polygons, whatever the limits allow (resvg parses about a million elements), and points without bound', () => {
    expect(() => checkDrawnShapes(500_000, ShapeType.PolygonZ)).not.toThrow();
    expect(() => checkDrawnShapes(500_001, ShapeType.Polygon)).toThrow(BadRequestError);
    expect(() => checkDrawnShapes(500_001, ShapeType.PolyLineM)).toThrow(/at most 500000 can be drawn in one picture/);
    expect(() => checkDrawnShapes(5_000_000, ShapeType.Point)).not.toThrow();
    expect(() => checkDrawnShapes(5_000_000, ShapeType.MultiPointZ)).not.toThrow();
  });
});
