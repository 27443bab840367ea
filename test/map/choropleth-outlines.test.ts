/**
 * Outlines on a choropleth recede (docs/api.md, "Outlines"; issue 31): a grid of
 * 5,000 adjacent parcels that ogr2ogr writes in Web Mercator, each 6 pixels a side on the
 * map's pixel grid (and on the image's), coloured in quantiles, over a plain white basemap:
 * every pixel of the grid is a class's fill as drawn, or crossed by an outline. A pixel is
 * outline-coloured when it is mostly outline: three times nearer an outline colour (the plain
 * picture's red, or a class's darker shade) than any class's fill as drawn. With 2 px of red
 * round every parcel, 55 % of the grid's pixels were; with the receding outline, 0.3 % of
 * the map's and 0.8 % of the image's (where four parcels meet). An outline the request names
 * still wins, on maps and images alike.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseColour } from '../../src/params/colour.ts';
import type { Rgba } from '../../src/svg/style.ts';
import { recedingColour } from '../../src/thematic/class-outline.ts';
import { decodePng, type DecodedPng, type RgbaPixel } from '../support/png.ts';
import { imagesUrl, startServer, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { allTypes, CHECKERBOARD_PLUGIN, mapUrl } from './support.ts';

const COLUMNS = 100;
const ROWS = 50;
/** The zoom the map fits the grid at: 600 × 300 pixels, the largest that fits 640 × 480 with the buffer. */
const ZOOM = 10;
/** Web Mercator metres a side: 6 pixels at ZOOM, from the world's origin on, so that edges fall between pixels. */
const CELL = (6 * 2 * 20_037_508.342789244) / (256 * 2 ** ZOOM);
const RED: Rgba = { r: 255, g: 0, b: 0, a: 1 };
const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };
/** docs/api.md, "The map operation": polygons coloured by class are filled at 70 % over the basemap. */
const MAP_FILL_OPACITY = 0.7;

/** Drawing 5,000 parcels takes seconds on a loaded machine: the test is of outlines, not of time. */
const UNHURRIED_MS = 120_000;

let server: TestServer;

beforeAll(async () => {
  const dir = makeTempDir('choropleth-outlines-');
  // V scatters the values over the grid, so that neighbours fall in different classes, as parcels' values do.
  const features = Array.from({ length: COLUMNS * ROWS }, (_, i) => {
    const [column, row] = [i % COLUMNS, Math.floor(i / COLUMNS)];
    const [x, y] = [column * CELL, row * CELL];
    const ring = [[x, y], [x, y + CELL], [x + CELL, y + CELL], [x + CELL, y], [x, y]];
    return { type: 'Feature', properties: { ROW: row, V: (i * 7919) % 5003 }, geometry: { type: 'Polygon', coordinates: [ring] } };
  });
  writeFileSync(join(dir, 'parcels.geojson'), JSON.stringify({ type: 'FeatureCollection', features }));
  execFileSync('ogr2ogr', ['-f', 'ESRI Shapefile', '-a_srs', 'EPSG:3857', join(dir, 'parcels.shp'), join(dir, 'parcels.geojson')]);
  const white = { plugin: CHECKERBOARD_PLUGIN, options: { colour1: '#ffffff', colour2: '#ffffff' } };
  server = await startServer({ dataDir: dir, basemaps: { providers: { white }, types: allTypes('white') }, limits: { requestTimeoutMs: UNHURRIED_MS } });
});
afterAll(async () => {
  await server?.close();
  removeTempDirs();
});

interface Drawn {
  png: DecodedPng;
  fills: Rgba[];
}

/** The picture of a JSON answer, and its legend's class colours. */
async function drawn(url: string): Promise<Drawn> {
  const response = await fetch(url);
  const body = await response.json();
  expect(response.status, JSON.stringify(body).slice(0, 500)).toBe(200);
  const fills = (body.Resource.Legend.Classes as { Color: string }[]).map(({ Color }) => parseColour(Color)!);
  return { png: decodePng(new Uint8Array(body.Resource.ShapefileFeatureImages[0].FeatureImage)), fills };
}

/**
 * The share of the grid's pixels (the box of the pixels neither transparent nor the basemap's
 * white, two pixels in from its edge) that are outline-coloured.
 */
function outlineShare({ png, fills }: Drawn, drawnFill: (fill: Rgba) => Rgba): number {
  const fillColours = fills.map(drawnFill);
  const outlineColours = [RED, ...fills.map(recedingColour)];
  const grid = boxOf(png, ([r, g, b, a]) => a > 0 && (r < 250 || g < 250 || b < 250));
  let outline = 0;
  let pixels = 0;
  for (let y = grid.ymin + 2; y <= grid.ymax - 2; y++) {
    for (let x = grid.xmin + 2; x <= grid.xmax - 2; x++) {
      const [r, g, b] = png.pixel(x, y);
      const nearest = (colours: Rgba[]) => Math.min(...colours.map((colour) => Math.hypot(colour.r - r, colour.g - g, colour.b - b)));
      pixels++;
      if (3 * nearest(outlineColours) < nearest(fillColours)) outline++;
    }
  }
  return outline / pixels;
}

function boxOf(png: DecodedPng, inside: (pixel: RgbaPixel) => boolean) {
  const box = { xmin: Infinity, ymin: Infinity, xmax: -Infinity, ymax: -Infinity };
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      if (!inside(png.pixel(x, y))) continue;
      box.xmin = Math.min(box.xmin, x);
      box.xmax = Math.max(box.xmax, x);
      box.ymin = Math.min(box.ymin, y);
      box.ymax = Math.max(box.ymax, y);
    }
  }
  expect(box.xmin, 'the grid is drawn').toBeLessThan(box.xmax);
  return box;
}

/** A class's colour at 70 % over the white basemap. */
const overWhite = (fill: Rgba): Rgba => ({
  r: fill.r * MAP_FILL_OPACITY + WHITE.r * (1 - MAP_FILL_OPACITY),
  g: fill.g * MAP_FILL_OPACITY + WHITE.g * (1 - MAP_FILL_OPACITY),
  b: fill.b * MAP_FILL_OPACITY + WHITE.b * (1 - MAP_FILL_OPACITY),
  a: 1,
});
const asFilled = (fill: Rgba) => fill;

describe('a choropleth of 5,000 parcels', { timeout: UNHURRIED_MS }, () => {
  const map = { file: 'parcels', styleBy: 'V', format: 'json' };

  it('shows its classes, not its outlines: under 2 % of the map is outline-coloured (55 % with 2 px of red)', async () => {
    const share = outlineShare(await drawn(mapUrl(server, map)), overWhite);
    expect(share).toBeLessThan(0.02);
  });

  it('keeps the outline a map names: lineColor and lineWidth win', async () => {
    const share = outlineShare(await drawn(mapUrl(server, { ...map, lineColor: '#FF0000', lineWidth: 2 })), overWhite);
    expect(share).toBeGreaterThan(0.3);
  });

  it('draws images by the same rule, and keeps the outline they name', async () => {
    // A thousand parcels, the most ids an image may draw, 6 pixels a side on the image's pixel grid.
    const images = { file: 'parcels', where: 'ROW < 10', singleImage: 1, size: '60,600', buffer: 0, styleBy: 'V', format: 'json' };
    expect(outlineShare(await drawn(imagesUrl(server, images)), asFilled)).toBeLessThan(0.02);
    expect(outlineShare(await drawn(imagesUrl(server, { ...images, lineColor: '#FF0000', lineWidth: 2 })), asFilled)).toBeGreaterThan(0.3);
  });
});
