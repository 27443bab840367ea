import { describe, expect, it } from 'vitest';
import { legendAlone, legendSvg, LEGEND_MARGIN, type LegendPosition } from '../../src/legend/legend-svg.ts';
import { rasterize } from '../../src/raster/rasterize.ts';
import { nativeRasterizer } from '../../src/raster/resvg.js';
import { measureText } from '../../src/text/layout.ts';
import type { Legend, LegendClass } from '../../src/thematic/legend.ts';
import { decodePng, hexColour, opaqueBounds, type DecodedPng } from '../support/png.ts';

const resvg = await nativeRasterizer();

const COLOURS = ['#ffffb2', '#fecc5c', '#fd8d3c', '#f03b20', '#bd0026', '#cccccc'];

function entry(color: string, label: string): LegendClass {
  return { label, color, min: null, max: null, value: label, count: 1 };
}

const LEGEND: Legend = {
  field: 'POP_EST',
  method: 'quantile',
  classes: COLOURS.map((color, i) => entry(color, i === 5 ? 'no value' : `${i * 1000} – ${(i + 1) * 1000 - 1}`)),
};

function render(svg: string, width: number, height: number): DecodedPng {
  return decodePng(rasterize(resvg, svg, { width, height, pixelRatio: 1, fonts: [], compressionLevel: 1 }));
}

function picture(body: string, width: number, height: number): DecodedPng {
  return render(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`, width, height);
}

/**
 * The swatches' colours, read down the middle of the columns (among the box's first 30) that
 * cross most of them: the swatches' outlines run down the columns at their sides.
 */
function swatches(image: DecodedPng, left: number): string[] {
  const columns = Array.from({ length: 30 }, (_, x) => swatchColumn(image, left + x));
  const most = Math.max(...columns.map((runs) => runs.length));
  const crossing = columns.filter((runs) => runs.length === most);
  return crossing[crossing.length >> 1];
}

/** The colours of a column's runs at least `minRun` pixels long, top to bottom, as #rrggbb. */
function swatchColumn(image: DecodedPng, x: number, minRun = 10): string[] {
  const runs: string[] = [];
  let previous = '';
  let length = 0;
  for (let y = 0; y <= image.height; y++) {
    const pixel = y < image.height ? image.pixel(x, y) : [0, 0, 0, 0];
    const colour = pixel[3] === 255 ? hexColour(pixel) : '';
    if (colour === previous) {
      length++;
      continue;
    }
    if (previous && length >= minRun && previous !== '#ffffff') runs.push(previous);
    previous = colour;
    length = 1;
  }
  return runs;
}

describe('the legend alone', () => {
  const { svg, width, height } = legendAlone(LEGEND, 4096)!;
  const image = render(svg, width, height);

  it('is sized to its content: the box fills it, and its widest label fits unshortened', () => {
    expect(opaqueBounds(image)).toEqual({ xmin: 0, ymin: 0, xmax: width - 1, ymax: height - 1 });
    expect(width).toBeGreaterThan(measureText('4000 – 4999', 12).width + 18);
    expect(width).toBeLessThan(measureText('4000 – 4999', 12).width + 60);
    expect(height).toBeLessThan(20 * (COLOURS.length + 2));
  });

  it('shows each class colour exactly, in class order', () => {
    const column = swatches(image, 0);
    expect(column).toEqual(COLOURS);
  });
});

describe('the legend in a picture', () => {
  const WIDTH = 400;
  const HEIGHT = 300;

  it.each<[LegendPosition, 'left' | 'right', 'top' | 'bottom']>([
    ['bottomright', 'right', 'bottom'],
    ['bottomleft', 'left', 'bottom'],
    ['topright', 'right', 'top'],
    ['topleft', 'left', 'top'],
  ])('stands in the %s corner, inside the picture, clear of the attribution strip', (position, side, end) => {
    const image = picture(legendSvg(LEGEND, { width: WIDTH, height: HEIGHT, position, bottomInset: 24 })!.svg, WIDTH, HEIGHT);
    const bounds = opaqueBounds(image)!;
    const alone = legendAlone(LEGEND, 4096)!;
    expect(bounds.xmax - bounds.xmin + 1).toBe(alone.width);
    expect(bounds.ymax - bounds.ymin + 1).toBe(alone.height);
    if (side === 'left') expect(bounds.xmin).toBe(LEGEND_MARGIN);
    else expect(bounds.xmax).toBe(WIDTH - 1 - LEGEND_MARGIN);
    if (end === 'top') expect(bounds.ymin).toBe(LEGEND_MARGIN);
    else expect(bounds.ymax).toBe(HEIGHT - 1 - 24 - LEGEND_MARGIN);
    const column = swatches(image, bounds.xmin);
    expect(column).toEqual(COLOURS);
  });

  it('drops the rows that do not fit and never leaves a small picture', () => {
    const many: Legend = { field: 'NAME', method: 'categories', classes: Array.from({ length: 26 }, (_, i) => entry(`#${(0x102030 + i * 0x050403).toString(16)}`, `Category ${i} with a rather long name indeed`)) };
    const [width, height] = [160, 150];
    const image = picture(legendSvg(many, { width, height, position: 'bottomright' })!.svg, width, height);
    const bounds = opaqueBounds(image)!;
    expect(bounds.xmin).toBeGreaterThanOrEqual(LEGEND_MARGIN);
    expect(bounds.ymin).toBeGreaterThanOrEqual(LEGEND_MARGIN);
    expect(bounds.xmax).toBeLessThanOrEqual(width - 1 - LEGEND_MARGIN);
    expect(bounds.ymax).toBeLessThanOrEqual(height - 1 - LEGEND_MARGIN);
    const column = swatches(image, bounds.xmin);
    // The first classes, in order; the last row says how many more there are.
    expect(column.length).toBeGreaterThan(1);
    expect(column).toEqual(many.classes.slice(0, column.length).map((entry) => entry.color));
  });

  it('draws nothing where not even one row fits', () => {
    expect(legendSvg(LEGEND, { width: 100, height: 40, position: 'topleft' })).toBeUndefined();
  });
});
