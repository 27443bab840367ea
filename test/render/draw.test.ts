import type { Position } from 'geojson';
import { describe, expect, it } from 'vitest';
import { shapesBBox } from '../../src/geometry/shape.ts';
import type { Geometry } from '../../src/geometry/types.ts';
import { toDrawingSpace } from '../../src/projection/drawing-space.ts';
import { fitExtent } from '../../src/projection/fit.ts';
import { toPixels } from '../../src/projection/pixels.ts';
import { rasterize } from '../../src/raster/rasterize.ts';
import { nativeRasterizer } from '../../src/raster/resvg.js';
import { renderSvg } from '../../src/svg/render-svg.ts';
import type { DrawStyle, Rgba } from '../../src/svg/style.ts';
import { decodePng, opaqueBounds, type RgbaPixel } from '../support/png.ts';
import { shapeOf } from '../support/shapes.ts';

const TRANSPARENT: Rgba = { r: 0, g: 0, b: 0, a: 0 };
const RED: Rgba = { r: 255, g: 0, b: 0, a: 1 };
const BLUE: Rgba = { r: 0, g: 0, b: 255, a: 1 };
const YELLOW: Rgba = { r: 255, g: 255, b: 0, a: 1 };
const GREY: Rgba = { r: 211, g: 211, b: 211, a: 1 };

const STYLE: DrawStyle = {
  lineColor: RED,
  lineWidth: 0,
  fillColor: GREY,
  fillOpacity: 1,
  pointRadius: 5,
  background: { color1: TRANSPARENT, angle: 0 },
};

const resvg = await nativeRasterizer();
const noCheckpoint = () => undefined;

interface DrawOptions {
  width?: number;
  height?: number;
  buffer?: number;
  geographic?: boolean;
}

/** Draws the geometries as the images operation does, and decodes the PNG. */
async function draw(geometries: Geometry[], style: Partial<DrawStyle> = {}, options: DrawOptions = {}) {
  const { width = 640, height = 480, buffer = 12, geographic = false } = options;
  const drawn = geometries.map((geometry) => toDrawingSpace(shapeOf(geometry), geographic));
  const transform = fitExtent(shapesBBox(drawn) ?? { xmin: 0, ymin: 0, xmax: 0, ymax: 0 }, width, height, buffer);
  const shapes = drawn.map((shape) => toPixels(shape, transform, 1, noCheckpoint));
  const svg = renderSvg({ width, height, style: { ...STYLE, ...style }, shapes, pixelRatio: 1 });
  return decodePng(rasterize(resvg, svg, { width, height, pixelRatio: 1, fonts: [], compressionLevel: 1 }));
}

function rgba({ r, g, b }: Rgba, alpha = 255): RgbaPixel {
  return [r, g, b, alpha];
}

const CLEAR: RgbaPixel = [0, 0, 0, 0];

function square(x0: number, y0: number, size: number): Position[] {
  return [[x0, y0], [x0 + size, y0], [x0 + size, y0 + size], [x0, y0 + size], [x0, y0]];
}

function expectClose(actual: RgbaPixel, expected: RgbaPixel, tolerance: number) {
  actual.forEach((channel, i) => expect(Math.abs(channel - expected[i])).toBeLessThanOrEqual(tolerance));
}

describe('drawing an image', () => {
  it('fits a square into the image less the buffer, centred on the wider axis', async () => {
    const image = await draw([{ type: 'Polygon', coordinates: [square(0, 0, 10)] }]);
    expect([image.width, image.height]).toEqual([640, 480]);
    // 456 px tall (480 - 2·12), so 456 px wide from x = 92 to 548.
    expect(opaqueBounds(image)).toEqual({ xmin: 92, ymin: 12, xmax: 547, ymax: 467 });
    expect(image.pixel(92, 240)).toEqual(rgba(GREY));
    expect(image.pixel(547, 467)).toEqual(rgba(GREY));
    expect(image.pixel(91, 240)).toEqual(CLEAR);
  });

  it('centres a single point as a round symbol filled and outlined', async () => {
    const image = await draw([{ type: 'Point', coordinates: [1234, 5678] }], { lineWidth: 2, pointRadius: 6 });
    expect(image.pixel(320, 240)).toEqual(rgba(GREY));
    expect(image.pixel(325, 240)).toEqual(rgba(RED));
    expect(image.pixel(320, 234)).toEqual(rgba(RED));
    expect(image.pixel(330, 240)).toEqual(CLEAR);
    // Round: the corner of the symbol's bounding square stays empty.
    expect(image.pixel(326, 246)).toEqual(CLEAR);
    const bounds = opaqueBounds(image)!;
    expect((bounds.xmin + bounds.xmax) / 2).toBeCloseTo(319.5, 0);
    expect((bounds.ymin + bounds.ymax) / 2).toBeCloseTo(239.5, 0);
  });

  it('fills polygons with exact colours, outlines them and leaves holes transparent', async () => {
    const fill: Rgba = { r: 51, g: 102, b: 204, a: 1 };
    const image = await draw([{ type: 'Polygon', coordinates: [square(0, 0, 10), square(4, 4, 2).reverse()] }], {
      fillColor: fill,
      lineWidth: 4,
    });
    expect(image.pixel(150, 100)).toEqual(rgba(fill));
    expect(image.pixel(92, 240)).toEqual(rgba(RED));
    expect(image.pixel(320, 240)).toEqual(CLEAR);
    // The hole spans 4·45.6 … 6·45.6 px from the left edge at 92: its outline is red too.
    expect(image.pixel(Math.round(92 + 4 * 45.6), 240)).toEqual(rgba(RED));
  });

  it('fills with the fill colour at fillColor alpha times fillOpacity, in straight alpha', async () => {
    const image = await draw([{ type: 'Polygon', coordinates: [square(0, 0, 10)] }], {
      fillColor: { r: 0, g: 128, b: 255, a: 0.8 },
      fillOpacity: 0.5,
    });
    expectClose(image.pixel(320, 240), [0, 128, 255, 102], 1);
  });

  it('strokes lines without filling them', async () => {
    const image = await draw([{ type: 'LineString', coordinates: [[0, 0], [5, 10], [10, 0]] }], { lineWidth: 6 });
    expect(image.pixel(92, 467)).toEqual(rgba(RED));
    expect(image.pixel(320, 12)).toEqual(rgba(RED));
    expect(image.pixel(320, 300)).toEqual(CLEAR);
  });

  it('draws nothing for a fully transparent colour', async () => {
    const image = await draw([{ type: 'LineString', coordinates: [[0, 0], [10, 10]] }], {
      lineWidth: 6,
      lineColor: TRANSPARENT,
    });
    expect(opaqueBounds(image)).toBeUndefined();
  });

  it('draws lon/lat in Web Mercator: a 10° square at 60–70° N comes out taller than wide', async () => {
    const image = await draw([{ type: 'Polygon', coordinates: [square(0, 60, 10)] }], {}, { geographic: true });
    const bounds = opaqueBounds(image)!;
    expect(bounds.ymax - bounds.ymin + 1).toBe(456);
    const width = bounds.xmax - bounds.xmin + 1;
    expect(width / 456).toBeCloseTo(1113194.9 / (11068715.7 - 8399737.9), 1);
    expect((bounds.xmin + bounds.xmax + 1) / 2).toBeCloseTo(320, 0);
  });
});

describe('background', () => {
  const gradient = (angle: number) => draw([], { background: { color1: BLUE, color2: YELLOW, angle } });

  it('runs a gradient from color1 on the left to color2 on the right at 0°', async () => {
    const image = await gradient(0);
    expectClose(image.pixel(0, 240), rgba(BLUE), 3);
    expectClose(image.pixel(639, 240), rgba(YELLOW), 3);
    expectClose(image.pixel(320, 0), image.pixel(320, 479), 0);
  });

  it('runs top to bottom at 90° and right to left at 180°', async () => {
    const down = await gradient(90);
    expectClose(down.pixel(320, 0), rgba(BLUE), 3);
    expectClose(down.pixel(320, 479), rgba(YELLOW), 3);
    const back = await gradient(180);
    expectClose(back.pixel(0, 240), rgba(YELLOW), 3);
    expectClose(back.pixel(639, 240), rgba(BLUE), 3);
  });

  it('fades a colour in from Transparent rather than from black', async () => {
    const image = await draw([], { background: { color1: TRANSPARENT, color2: YELLOW, angle: 0 } });
    const [r, g, b, a] = image.pixel(320, 240);
    expect(a).toBeGreaterThan(100);
    expect(a).toBeLessThan(155);
    expectClose([r, g, b, 0], [255, 255, 0, 0], 3);
  });

  it('fills a plain background with color1', async () => {
    const image = await draw([], { background: { color1: BLUE, angle: 0 } });
    expect(image.pixel(0, 0)).toEqual(rgba(BLUE));
    expect(image.pixel(639, 479)).toEqual(rgba(BLUE));
  });

  it('draws one-pixel grid lines every gridSpace pixels from the top-left corner', async () => {
    const black: Rgba = { r: 0, g: 0, b: 0, a: 1 };
    const image = await draw([], { grid: { color: black, space: 20 } });
    for (const x of [0, 20, 40, 620]) expect(image.pixel(x, 7)).toEqual(rgba(black));
    for (const y of [0, 20, 460]) expect(image.pixel(7, y)).toEqual(rgba(black));
    for (const x of [1, 19, 21, 639]) expect(image.pixel(x, 7)).toEqual(CLEAR);
    expect(image.pixel(7, 21)).toEqual(CLEAR);
  });
});
