import { describe, expect, it } from 'vitest';
import type { Position } from 'geojson';
import { pointsShape } from '../../src/geometry/shape.ts';
import { labelText, MAX_LABEL_CHARACTERS } from '../../src/labels/label-text.ts';
import { labelsSvg } from '../../src/labels/labels-svg.ts';
import { labelAttempts, placeLabels, placeLabelsCounted, type LabelFeature, type LabelOptions, type PlacedLabel } from '../../src/labels/place-labels.ts';
import { rasterize } from '../../src/raster/rasterize.ts';
import { nativeRasterizer } from '../../src/raster/resvg.js';
import type { Rgba } from '../../src/svg/style.ts';
import { BUNDLED_FONT_FILE } from '../../src/text/font.ts';
import { measureText, textPath } from '../../src/text/layout.ts';
import { decodePng, opaqueBounds, type DecodedPng } from '../support/png.ts';
import { shapeOf } from '../support/shapes.ts';

const resvg = await nativeRasterizer();
const DARK: Rgba = { r: 34, g: 34, b: 34, a: 1 };
const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };
const WIDTH = 640;
const HEIGHT = 480;

function options(overrides: Partial<LabelOptions> = {}): LabelOptions {
  return { width: WIDTH, height: HEIGHT, size: 12, pointRadius: 4, maxLabels: 1000, checkpoint: () => undefined, ...overrides };
}

function render(body: string, { width = WIDTH, height = HEIGHT, pixelRatio = 1, fonts = [] as string[] } = {}): DecodedPng {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`;
  return decodePng(rasterize(resvg, svg, { width, height, pixelRatio, fonts, compressionLevel: 1 }));
}

function square(x0: number, y0: number, size: number): Position[] {
  return [[x0, y0], [x0 + size, y0], [x0 + size, y0 + size], [x0, y0 + size], [x0, y0]];
}

function polygon(x0: number, y0: number, size: number): LabelFeature['shape'] {
  return shapeOf({ type: 'Polygon', coordinates: [square(x0, y0, size)] });
}

/** 400 squares of 28 px in a 20 × 20 grid, each named at length. */
const GRID: LabelFeature[] = Array.from({ length: 400 }, (_, i) => ({
  shape: polygon(10 + (i % 20) * 31, 10 + Math.floor(i / 20) * 23, 20),
  text: `Municipality number ${i} of the long names`,
}));

describe('placing labels', () => {
  const placed = placeLabels(GRID, options());

  it('places some labels of a crowded grid and leaves the rest out', () => {
    expect(placed.length).toBeGreaterThan(10);
    expect(placed.length).toBeLessThan(GRID.length);
  });

  it('places no two labels over each other: each box rendered alone, no pixel is covered twice', () => {
    const covered = new Uint8Array(WIDTH * HEIGHT);
    for (const { box } of placed) {
      const image = render(`<rect x="${box.xmin}" y="${box.ymin}" width="${box.xmax - box.xmin}" height="${box.ymax - box.ymin}" fill="#000"/>`);
      // Only pixels the box covers wholly: anti-aliased edges of two touching boxes share a pixel.
      for (let p = 0; p < covered.length; p++) if (image.data[4 * p + 3] === 255) covered[p]++;
    }
    expect(covered.reduce((most, count) => Math.max(most, count), 0)).toBe(1);
    expect(covered.filter((count) => count === 1).length).toBeGreaterThan(placed.length * 100);
  });

  it('keeps every box inside the picture, and every drawn pixel of the text inside its box', () => {
    for (const { box } of placed) {
      expect(box.xmin).toBeGreaterThanOrEqual(0);
      expect(box.ymin).toBeGreaterThanOrEqual(0);
      expect(box.xmax).toBeLessThanOrEqual(WIDTH);
      expect(box.ymax).toBeLessThanOrEqual(HEIGHT);
    }
    const image = render(labelsSvg(placed, { size: 12, color: DARK, halo: WHITE }));
    let inked = 0;
    for (let y = 0; y < HEIGHT; y++) {
      for (let x = 0; x < WIDTH; x++) {
        if (image.pixel(x, y)[3] === 0) continue;
        inked++;
        const inside = placed.some(({ box }) => x + 1 > box.xmin && x < box.xmax && y + 1 > box.ymin && y < box.ymax);
        if (!inside) throw new Error(`pixel ${x},${y} is drawn outside every label's box`);
      }
    }
    expect(inked).toBeGreaterThan(placed.length * 50);
  });

  it('lets the larger feature win the place its label competes for, whatever the given order', () => {
    const small: LabelFeature = { shape: polygon(300, 230, 20), text: 'Small' };
    const large: LabelFeature = { shape: polygon(250, 180, 120), text: 'Large' };
    expect(placeLabels([small, large], options()).map((label) => label.text)).toEqual(['Large']);
    expect(placeLabels([large, small], options()).map((label) => label.text)).toEqual(['Large']);
  });

  it('centres a polygon label on its pole of inaccessibility, a line label at its middle', () => {
    // An L whose bounding box centre (and centroid) lies outside it: the pole is in its wider arm.
    const ell = shapeOf({ type: 'Polygon', coordinates: [[[100, 100], [400, 100], [400, 140], [140, 140], [140, 400], [100, 400], [100, 100]]] });
    const [onEll] = placeLabels([{ shape: ell, text: 'L' }], options());
    expect(onEll.box.xmin).toBeGreaterThanOrEqual(98);
    const line = shapeOf({ type: 'LineString', coordinates: [[100, 300], [300, 300], [300, 100]] });
    const [onLine] = placeLabels([{ shape: line, text: 'Road' }], options());
    expect(onLine.x + onLine.width / 2).toBeCloseTo(300, 5);
  });

  it('puts a point label right of its symbol, or left of it where the right would leave the picture', () => {
    const [right] = placeLabels([{ shape: pointsShape(Float64Array.of(100, 100)), text: 'Town' }], options());
    expect(right.x).toBeGreaterThan(100 + 4);
    const [left] = placeLabels([{ shape: pointsShape(Float64Array.of(630, 100)), text: 'Town' }], options());
    expect(left.x + left.width).toBeLessThan(630 - 4);
  });

  it('labels nothing for empty or null text, and cuts long texts with an ellipsis', () => {
    const shape = polygon(100, 100, 300);
    expect(placeLabels([{ shape, text: '' }, { shape, text: null }, { shape, text: '   ' }], options())).toEqual([]);
    const cut = labelText('x'.repeat(254));
    expect(Array.from(cut)).toHaveLength(MAX_LABEL_CHARACTERS);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('bounds its work on 100,000 points of 254-character texts: at most maxLabels placed, a bounded number measured', () => {
    const text = 'W'.repeat(200) + 'é'.repeat(54);
    const features: LabelFeature[] = Array.from({ length: 100_000 }, (_, i) => ({
      shape: pointsShape(Float64Array.of((i * 7919) % WIDTH, (i * 104_729) % HEIGHT)),
      text,
    }));
    let checkpoints = 0;
    const { labels, measured } = placeLabelsCounted(features, options({ size: 6, maxLabels: 50, checkpoint: () => void checkpoints++ }));
    expect(labels.length).toBeLessThanOrEqual(50);
    expect(measured).toBeLessThanOrEqual(labelAttempts(50));
    expect(checkpoints).toBeGreaterThan(0);
    for (const label of labels) expect(Array.from(label.text).length).toBeLessThanOrEqual(MAX_LABEL_CHARACTERS);
    const stop = () => {
      throw new Error('stopped');
    };
    expect(() => placeLabels(features, options({ checkpoint: stop }))).toThrow('stopped');
  });

});

describe('label text', () => {
  const label: PlacedLabel = { text: 'Sharp at every scale', x: 20, y: 40, width: 0, height: 0, box: { xmin: 0, ymin: 0, xmax: 0, ymax: 0 } };

  it('stays sharp when the picture is drawn zoomed: about 4× the ink at scale 2 and 9× at scale 3', () => {
    const svg = labelsSvg([label], { size: 16, color: DARK, halo: WHITE });
    const ink = (pixelRatio: number) => render(svg, { width: 200, height: 60, pixelRatio }).data.reduce((sum, value, i) => (i % 4 === 3 ? sum + value : sum), 0);
    const [one, two, three] = [ink(1), ink(2), ink(3)];
    expect(two / one).toBeGreaterThan(3.8);
    expect(two / one).toBeLessThan(4.2);
    expect(three / one).toBeGreaterThan(8.5);
    expect(three / one).toBeLessThan(9.5);
  });

  it('is measured as resvg sets the same text in the same font, kerning included', () => {
    for (const text of ['AVATAR Tomorrow', 'Wavy Tóky, LTA', 'Hello World']) {
      const size = 40;
      const asText = render(`<text x="10" y="50" font-family="Noto Sans" font-size="${size}">${text}|</text>`, { width: 800, height: 70, fonts: [BUNDLED_FONT_FILE] });
      const asPath = render(`<path d="${textPath(`${text}|`, 10, 50, size, 2)}"/>`, { width: 800, height: 70 });
      expect(opaqueBounds(asPath)).toEqual(opaqueBounds(asText));
      // The bar after the text starts where the text's advance ends.
      const bar = render(`<path d="${textPath('|', 10 + measureText(text, size).width, 50, size, 2)}"/>`, { width: 800, height: 70 });
      expect(opaqueBounds(bar)?.xmax).toBe(opaqueBounds(asText)?.xmax);
    }
  });

  it('kerns the pairs Noto Sans kerns: "AV" narrower than "A" and "V" apart', () => {
    expect(measureText('AV', 100).width).toBeLessThan(measureText('A', 100).width + measureText('V', 100).width - 1);
  });
});
