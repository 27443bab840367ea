/**
 * scale=1|2|3, format=svg and format=jpeg (docs/decisions.md, "Images for screens and caches"):
 * the image has size × scale real pixels drawn at that density, hot spots stay in size's
 * CSS pixels, the SVG is the document the PNG is drawn from, and maps come as JPEG.
 */
import { Resvg } from '@resvg/resvg-js';
import { cpSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import decode, { init as initJpegDecoder } from '@jsquash/jpeg/decode.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtures } from '../support/fixtures.ts';
import { decodePng, type DecodedPng } from '../support/png.ts';
import { imagesUrl, startServer, type TestServer } from '../support/server.ts';
import { parseXml } from '../support/xml.ts';
import { mapUrl, MARKER, startTileServer, tileColour, worldPixel, type TileServer } from '../map/support.ts';
import xyz from '../../plugins/xyz/index.ts';
import { testContext, viewAt } from '../support/basemap.ts';

/** Room for one 640 × 480 image at scale 2, not at scale 3. */
const MAX_PIXELS = 640 * 480 * 4;

let tiles: TileServer;
let server: TestServer;

beforeAll(async () => {
  tiles = await startTileServer();
  const dataDir = writeFixtures();
  for (const ext of ['shp', 'shx', 'dbf', 'prj', 'cpg']) cpSync(`data/benelux_rd.${ext}`, join(dataDir, `benelux_rd.${ext}`));
  const xyz = (url: string) => ({ plugin: 'xyz', options: { url, timeoutMs: 2000, attribution: 'Tiles © Test' } });
  server = await startServer({
    dataDir,
    limits: { maxPixelsPerRequest: MAX_PIXELS },
    basemaps: {
      providers: {
        dense: xyz(tiles.template.replace('.png', '{r}.png')),
        plain: xyz(tiles.template),
        offline: { plugin: 'embedded' },
      },
      types: { Road: 'dense', Aerial: 'plain', AerialWithLabels: 'offline' },
    },
  });
});

afterAll(async () => {
  await server.close();
  await tiles.close();
});

async function answer(url: string, contentType: string): Promise<Uint8Array> {
  const response = await fetch(url);
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('content-type')).toBe(contentType);
  return new Uint8Array(await response.arrayBuffer());
}

const imagePng = async (query: Record<string, string | number>) =>
  decodePng(await answer(imagesUrl(server, { format: 'png', ...query }), 'image/png'));
const mapPng = async (query: Record<string, string | number>) => decodePng(await answer(mapUrl(server, { format: 'png', ...query }), 'image/png'));

async function hotSpots(url: string) {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  const body = await response.json();
  return body.Resource.ShapefileFeatureImages.map((image: { FeatureHotSpots: unknown }) => image.FeatureHotSpots);
}

const alpha = (image: DecodedPng, x: number, y: number) => image.pixel(x, y)[3];

/** Painted pixels (alpha > 0) of both images, over those of either: 1 when they cover the same pixels. */
function paintedIoU(a: { width: number; height: number; data: Uint8Array }, b: { data: Uint8Array }): number {
  let both = 0;
  let either = 0;
  for (let i = 3; i < a.data.length; i += 4) {
    const [inA, inB] = [a.data[i] > 0, b.data[i] > 0];
    if (inA && inB) both++;
    if (inA || inB) either++;
  }
  return both / either;
}

describe('scale on images', () => {
  it('draws size × scale real pixels', async () => {
    for (const scale of [1, 2, 3]) {
      const image = await imagePng({ file: 'squares', fid: 5, size: '120,160', scale });
      expect([image.width, image.height]).toEqual([160 * scale, 120 * scale]);
    }
  });

  it('draws lines twice as wide in real pixels', async () => {
    // Two horizontal lines 4 CSS px wide: a column crosses 8 CSS px of line in all.
    const coverage = async (scale: number) => {
      const image = await imagePng({ file: 'lines', fid: 1, lineWidth: 4, scale });
      let sum = 0;
      for (let y = 0; y < image.height; y++) sum += alpha(image, 320 * scale, y) / 255;
      return sum;
    };
    expect(await coverage(1)).toBeCloseTo(8, 1);
    expect(await coverage(2)).toBeCloseTo(16, 1);
  });

  it('keeps edges as sharp in real pixels: anti-aliased over no more pixels at scale 2', async () => {
    /** Per row, the pixels of the left half that are neither empty nor full (filled shapes without an outline). */
    const partialPerRow = async (query: Record<string, string | number>, scale: number, rows: [number, number]) => {
      const image = await imagePng({ ...query, lineWidth: 0, scale });
      const counts: number[] = [];
      for (let y = rows[0] * scale; y < rows[1] * scale; y++) {
        let partial = 0;
        for (let x = 0; x < image.width / 2; x++) if (alpha(image, x, y) > 0 && alpha(image, x, y) < 255) partial++;
        counts.push(partial);
      }
      return counts;
    };
    const mean = (counts: number[]) => counts.reduce((sum, n) => sum + n, 0) / counts.length;
    // A square's left edge at x = 52.5 CSS px: half a pixel at scale 1, on the pixel grid at
    // scale 2. A picture scaled up would blur it over two pixels.
    const square = { file: 'squares', fid: 0, size: '240,321' };
    expect(new Set(await partialPerRow(square, 1, [20, 220]))).toEqual(new Set([1]));
    expect(Math.max(...(await partialPerRow(square, 2, [20, 220])))).toBeLessThanOrEqual(1);
    // A circle's edge at every slope: as many pixels a row at scale 2 as at 1, give or take
    // where the edge falls on the grid; scaled up it would be twice as many.
    const circle = { file: 'squares', fid: 5, size: '240,320' };
    const [one, two] = [mean(await partialPerRow(circle, 1, [20, 220])), mean(await partialPerRow(circle, 2, [20, 220]))];
    expect(one).toBeGreaterThan(0.5);
    expect(two).toBeLessThan(one * 1.25);
  });

  it('gives the same hot spots, in CSS pixels, at every scale', async () => {
    const url = (file: string | number, fid: string | number, scale: number) =>
      imagesUrl(server, { file, fid, scale, size: '240,320', includeHotSpots: 1, format: 'json' });
    // One image a request: three at scale 3 would pass maxPixelsPerRequest.
    for (const [file, fid] of [['squares', 0], ['squares', 1], ['squares', 5], ['lines', 1], ['cities', 0], ['benelux_rd', 0], ['benelux_rd', 1]]) {
      const atOne = await hotSpots(url(file, fid, 1));
      expect(await hotSpots(url(file, fid, 2)), `${file} ${fid}`).toEqual(atOne);
      expect(await hotSpots(url(file, fid, 3)), `${file} ${fid}`).toEqual(atOne);
    }
  });

  it('applies maxSize to size and maxPixelsPerRequest to real pixels', async () => {
    await imagePng({ file: 'squares', fid: 0, scale: 2 });
    const tooMany = await fetch(imagesUrl(server, { file: 'squares', fid: 0, scale: 3, format: 'json' }));
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).ErrorDetails).toContain(`1920x1440 pixels (size 480,640 at scale 3), ${1920 * 1440} pixels`);
    const outOfRange = await fetch(imagesUrl(server, { file: 'squares', fid: 0, scale: 4, format: 'json' }));
    expect(outOfRange.status).toBe(400);
    expect((await outOfRange.json()).ErrorDetails).toBe("Parameter 'scale' must be an integer from 1 to 3; got '4'.");
  });
});

describe('format=svg on images', () => {
  const svgOf = async (query: Record<string, string | number>) =>
    new TextDecoder().decode(await answer(imagesUrl(server, { format: 'svg', ...query }), 'image/svg+xml'));

  it('answers the SVG document, in CSS pixels with a viewBox, at any scale', async () => {
    for (const scale of [1, 2]) {
      const root = parseXml(await svgOf({ file: 'squares', fid: 1, size: '300,400', scale }));
      expect(root.name).toBe('svg');
      expect(root.namespace).toBe('http://www.w3.org/2000/svg');
      expect(root.attributes).toMatchObject({ width: '400', height: '300', viewBox: '0 0 400 300' });
    }
  });

  it('rasterizes, as resvg draws it, to the pixels of format=png', async () => {
    const queries: Record<string, string | number>[] = [
      { file: 'squares', fid: 1 },
      { file: 'lines', fid: 1, lineWidth: 3, bgColor1: 'Navy', bgColor2: 'Transparent', bgAngle: 30 },
      { file: 'benelux_rd', fid: 0, theme: 'OceanGrid' },
      { file: 'cities', fid: 0, scale: 2 },
    ];
    for (const query of queries) {
      const scale = Number(query.scale ?? 1);
      const svg = await svgOf(query);
      const drawn = new Resvg(svg, scale === 1 ? {} : { fitTo: { mode: 'zoom', value: scale } }).render();
      const png = await imagePng(query);
      expect([drawn.width, drawn.height]).toEqual([png.width, png.height]);
      expect(paintedIoU(png, { data: new Uint8Array(drawn.pixels) }), JSON.stringify(query)).toBeGreaterThanOrEqual(0.99);
    }
  });

  it('answers the first image when several are drawn, as format=png does', async () => {
    expect(await svgOf({ file: 'squares', fid: '4,0' })).toBe(await svgOf({ file: 'squares', fid: 4 }));
  });

  it('is not a map format, and jpeg is not an images format', async () => {
    const refused = async (url: string) => {
      const response = await fetch(url);
      expect(response.status).toBe(400);
      return (await response.json()).ErrorDetails as string;
    };
    expect(await refused(imagesUrl(server, { file: 'squares', fid: 0, format: 'jpeg' }))).toBe(
      "Parameter 'format' must be one of xml, json, png, svg; got 'jpeg'.",
    );
    expect(await refused(mapUrl(server, { file: 'points', format: 'svg' }))).toBe(
      "Parameter 'format' must be one of xml, json, png, jpeg; got 'svg'.",
    );
  });
});

describe('scale on maps', () => {
  const ZOOM = 9;
  /** Where the tile grid lies on a map of point 0 at ZOOM, in CSS pixels: tile (tx, ty) at its corner. */
  function tileCorners(): { tx: number; ty: number; x: number; y: number }[] {
    const [wx, wy] = worldPixel(5.1, 52.1, ZOOM);
    const [left, top] = [Math.round(wx - 320), Math.round(wy - 240)];
    const corners = [];
    for (let ty = Math.ceil(top / 256); ty * 256 < top + 480; ty++) {
      for (let tx = Math.ceil(left / 256); tx * 256 < left + 640; tx++) corners.push({ tx, ty, x: tx * 256 - left, y: ty * 256 - top });
    }
    return corners;
  }

  it('asks for @2x tiles where the template has {r}, and draws them one to one at CSS pixel × 2', async () => {
    tiles.requests.length = 0;
    const image = await mapPng({ file: 'points', fid: 0, zoom: ZOOM, scale: 2 });
    expect([image.width, image.height]).toEqual([1280, 960]);
    expect(tiles.requests.length).toBeGreaterThan(0);
    expect(tiles.requests.every((request) => /^\/9\/\d+\/\d+@2x\.png\?/.test(request.path))).toBe(true);
    for (const { tx, ty, x, y } of tileCorners()) {
      // A 512-px tile's marker is one real pixel: it was not scaled.
      expect(image.pixel(2 * x, 2 * y).slice(0, 3)).toEqual(MARKER);
      expect(image.pixel(2 * x + 1, 2 * y + 1).slice(0, 3)).toEqual(tileColour(tx, ty));
    }
    tiles.requests.length = 0;
    await mapPng({ file: 'points', fid: 0, zoom: ZOOM });
    expect(tiles.requests.every((request) => /^\/9\/\d+\/\d+\.png\?/.test(request.path))).toBe(true);
  });

  it('draws 256-px tiles scaled up where the template cannot ask for denser ones', async () => {
    tiles.requests.length = 0;
    const image = await mapPng({ file: 'points', fid: 0, zoom: ZOOM, scale: 2, type: 'Aerial' });
    expect(tiles.requests.every((request) => /^\/9\/\d+\/\d+\.png\?/.test(request.path))).toBe(true);
    for (const { tx, ty, x, y } of tileCorners()) {
      // Still placed at CSS pixel × 2, but the one-pixel marker is smoothed over its neighbours.
      expect(image.pixel(2 * x, 2 * y).slice(0, 3)).toEqual(MARKER);
      expect(image.pixel(2 * x + 1, 2 * y + 1).slice(0, 3)).not.toEqual(tileColour(tx, ty));
      expect(image.pixel(2 * x + 4, 2 * y + 4).slice(0, 3)).toEqual(tileColour(tx, ty));
    }
  });

  it('fetches 512-px tiles (tileSize 512) a zoom out, each over 512 CSS pixels, @2x where the template asks', async () => {
    const provider = await xyz.create({ url: tiles.template.replace('.png', '{r}.png'), tileSize: 512 }, testContext('xyz-512'));
    for (const [devicePixelRatio, suffix] of [[1, ''], [2, '@2x']] as const) {
      tiles.requests.length = 0;
      const view = { ...viewAt(ZOOM, 256 * 100, 256 * 80, 640, 480), devicePixelRatio };
      const { below } = await provider.render({ view, type: 'Road', culture: 'English', signal: new AbortController().signal });
      expect(below.images!.map(({ x, y, width, height }) => [x, y, width, height])).toEqual([
        [0, 0, 512, 512],
        [512, 0, 512, 512],
      ]);
      expect(tiles.requests.map((request) => request.path.split('?')[0]).sort()).toEqual([`/8/50/40${suffix}.png`, `/8/51/40${suffix}.png`]);
    }
  });

  it('gives the same hot spots at every scale', async () => {
    for (const type of ['Road', 'AerialWithLabels']) {
      const url = (scale: number) => mapUrl(server, { file: 'benelux_rd', type, scale, includeHotSpots: 1, format: 'json' });
      expect(await hotSpots(url(2))).toEqual(await hotSpots(url(1)));
    }
  });

  it('draws the embedded basemap, its labels and the attribution at the denser scale', async () => {
    /** Dark text pixels in the attribution's corner (bottom-right 120 × 20 CSS pixels). */
    const textPixels = (image: DecodedPng, scale: number) => {
      let count = 0;
      for (let y = image.height - 20 * scale; y < image.height; y++) {
        for (let x = image.width - 120 * scale; x < image.width; x++) if (image.pixel(x, y)[0] < 100) count++;
      }
      return count;
    };
    const query = { file: 'benelux_rd', type: 'AerialWithLabels' };
    const [one, two] = [await mapPng(query), await mapPng({ ...query, scale: 2 })];
    expect([two.width, two.height]).toEqual([1280, 960]);
    expect(textPixels(one, 1)).toBeGreaterThan(20);
    expect(textPixels(two, 2) / textPixels(one, 1)).toBeGreaterThan(3);
    expect(textPixels(two, 2) / textPixels(one, 1)).toBeLessThan(5);
  });

  it('refuses a map past maxPixelsPerRequest in real pixels', async () => {
    const response = await fetch(mapUrl(server, { file: 'points', scale: 3, format: 'json' }));
    expect(response.status).toBe(400);
    expect((await response.json()).ErrorDetails).toContain('limits.maxPixelsPerRequest');
  });
});

describe('format=jpeg on maps', () => {
  const wasm = new WebAssembly.Module(readFileSync(createRequire(import.meta.url).resolve('@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm')));
  const decoderReady = initJpegDecoder(wasm as Parameters<typeof initJpegDecoder>[0]);
  async function mapJpeg(query: Record<string, string | number>) {
    const bytes = await answer(mapUrl(server, { format: 'jpeg', ...query }), 'image/jpeg');
    await decoderReady;
    return decode(bytes.buffer as ArrayBuffer);
  }

  it('answers a JPEG of the map, at its scale', async () => {
    const query = { file: 'points', fid: 0, zoom: 9 };
    const [jpeg, png] = [await mapJpeg(query), await mapPng(query)];
    expect([jpeg.width, jpeg.height]).toEqual([640, 480]);
    // Flat tiles come through within JPEG's error, away from edges.
    for (const [x, y] of [[100, 100], [600, 60], [40, 440]]) {
      const at = (y * 640 + x) * 4;
      const expected = png.pixel(x, y);
      for (let channel = 0; channel < 3; channel++) expect(Math.abs(jpeg.data[at + channel] - expected[channel])).toBeLessThan(8);
    }
    const dense = await mapJpeg({ ...query, scale: 2 });
    expect([dense.width, dense.height]).toEqual([1280, 960]);
  });

  it('lays what is transparent over white: JPEG has no alpha', async () => {
    // At zoom 1 a map 1000 px tall reaches past the poles, where there are no tiles.
    const query = { file: 'points', fid: 0, zoom: 1, size: '1000,640' };
    const [jpeg, png] = [await mapJpeg(query), await mapPng(query)];
    expect(png.pixel(320, 5)[3]).toBe(0);
    expect(Array.from(jpeg.data.subarray((5 * 640 + 320) * 4, (5 * 640 + 320) * 4 + 4))).toEqual([255, 255, 255, 255]);
  });
});

describe('the real pixels of one picture', () => {
  it('never pass maxSize squared, whatever the scale: a worker holds what it held before scale', async () => {
    const { checkPixelBudget } = await import('../../src/operations/pixel-budget.ts');
    const limits = { maxPixels: 100_000_000, maxSize: 1000 };
    expect(() => checkPixelBudget(1, { height: 500, width: 500 }, 2, limits)).not.toThrow();
    expect(() => checkPixelBudget(1, { height: 480, width: 640 }, 2, limits)).toThrow(
      'One image of size 480,640 at scale 2 would have 1280x960 pixels; at most 1000000 (limits.maxSize squared) are allowed in one image.',
    );
  });
});
