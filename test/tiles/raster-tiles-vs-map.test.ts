/**
 * Raster tiles assembled into one picture are the map operation's picture of the same view
 * (issue 32, "Tests"): both drawn over a basemap that draws nothing (blank-basemap.ts), in the
 * same paint (the map's outline colour over a 20 % fill of it; tiles given that fill as
 * `#AARRGGBB`), and compared as masks, pixel by pixel, away from the tiles' seams.
 *
 * Where the map's view lies is worked out by the map operation's own rules (src/map/view.ts,
 * placeView; docs/api.md, "The map operation": centred on the file's extent, the corner
 * snapped to a whole world pixel) from the file's extent, which a file in EPSG:3857 holds in
 * its header as it is; a wrong placement shifts every edge, and the IoU falls far below the
 * bar.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeView } from '../../src/map/view.ts';
import { TILE_SIZE } from '../../src/projection/web-mercator.ts';
import { allTypes, mapUrl } from '../map/support.ts';
import { decodePng, type DecodedPng } from '../support/png.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { TEST_RENDER, fetchTile, maskIoU, paintedMask, writeShapefile } from '../support/tiles.ts';

const DATA = fileURLToPath(new URL('../../data/', import.meta.url));
const BLANK_BASEMAP = fileURLToPath(new URL('./blank-basemap.ts', import.meta.url));
const FILE = 'benelux_3857';
/** Pixels on either side of a seam between tiles left out of the comparison. */
const SEAM = 2;

let server: TestServer;
let extent: { xmin: number; ymin: number; xmax: number; ymax: number };

beforeAll(async () => {
  const folder = makeTempDir('shapeshot-tiles-vs-map-');
  const shp = await writeShapefile(folder, FILE, `${DATA}benelux_rd.shp`, ['-t_srs', 'EPSG:3857']);
  const header = readFileSync(shp).subarray(36, 68);
  const [xmin, ymin, xmax, ymax] = [0, 8, 16, 24].map((at) => header.readDoubleLE(at));
  extent = { xmin, ymin, xmax, ymax };
  server = await startServer({ dataDir: folder, render: TEST_RENDER, basemaps: { providers: { blank: { plugin: BLANK_BASEMAP } }, types: allTypes('blank') } });
}, 60_000);

afterAll(async () => {
  await server?.close();
  removeTempDirs();
});

/** The view's pixels assembled from the raster tiles that cover it: world pixel (left + column, top + row) at `zoom`. */
async function assembled(zoom: number, left: number, top: number, width: number, height: number, query: Record<string, string>): Promise<DecodedPng> {
  const data = new Uint8Array(width * height * 4);
  const tiles: Promise<void>[] = [];
  for (let y = Math.floor(top / TILE_SIZE); y * TILE_SIZE < top + height; y++) {
    for (let x = Math.floor(left / TILE_SIZE); x * TILE_SIZE < left + width; x++) {
      tiles.push(
        fetchTile(server, FILE, { z: zoom, x, y }, 'png', query).then((bytes) => {
          const tile = decodePng(bytes);
          for (let row = 0; row < TILE_SIZE; row++) {
            const r = y * TILE_SIZE + row - top;
            if (r < 0 || r >= height) continue;
            for (let column = 0; column < TILE_SIZE; column++) {
              const c = x * TILE_SIZE + column - left;
              if (c < 0 || c >= width) continue;
              data.set(tile.data.subarray((row * TILE_SIZE + column) * 4, (row * TILE_SIZE + column + 1) * 4), (r * width + c) * 4);
            }
          }
        }),
      );
    }
  }
  await Promise.all(tiles);
  return { width, height, data, pixel: (x, y) => [...data.subarray((y * width + x) * 4, (y * width + x + 1) * 4)] as [number, number, number, number] };
}

describe("raster tiles put together are the map operation's picture of the same view", () => {
  // [zoom, height, width, the map's parameters, the tiles' parameters]: the whole layer with its outer edges, and a closer view cut by the picture's edges and by many seams.
  const plain = { lineColor: 'FF0000', lineWidth: '2' };
  const cases: [number, number, number, Record<string, string>, Record<string, string>][] = [
    [7, 480, 640, plain, { ...plain, fillColor: '33FF0000' }],
    [9, 600, 700, plain, { ...plain, fillColor: '33FF0000' }],
    [8, 512, 512, { styleBy: 'NAME_EN' }, { styleBy: 'NAME_EN' }],
  ];

  it.each(cases)('zoom %i, %i × %i px, %o', async (zoom, height, width, mapQuery, tileQuery) => {
    const centre = { x: (extent.xmin + extent.xmax) / 2, y: (extent.ymin + extent.ymax) / 2 };
    const { view } = placeView(centre, zoom, width, height, 1);
    const response = await fetch(mapUrl(server, { file: FILE, format: 'png', zoom, size: `${height},${width}`, ...mapQuery }));
    expect(response.status).toBe(200);
    const map = decodePng(new Uint8Array(await response.arrayBuffer()));
    expect([map.width, map.height]).toEqual([width, height]);
    const tiles = await assembled(zoom, view.left, view.top, width, height, tileQuery);

    const awayFromSeams = (pixel: number) => {
      const [column, row] = [(view.left + (pixel % width)) % TILE_SIZE, (view.top + Math.floor(pixel / width)) % TILE_SIZE];
      return column >= SEAM && column < TILE_SIZE - SEAM && row >= SEAM && row < TILE_SIZE - SEAM;
    };
    // Painted at all (the 20 % fill is alpha 51; a styled fill is stronger), and the outlines (half opaque and more).
    const painted = maskIoU(paintedMask(tiles, 26), paintedMask(map, 26), awayFromSeams);
    const outlines = maskIoU(paintedMask(tiles, 128), paintedMask(map, 128), awayFromSeams);
    console.log(`zoom ${zoom} ${JSON.stringify(tileQuery)}: painted IoU ${painted.iou.toFixed(4)} over ${painted.either} px; outlines IoU ${outlines.iou.toFixed(4)} over ${outlines.either} px`);
    expect(painted.either).toBeGreaterThan(width * height * 0.1);
    expect(painted.iou).toBeGreaterThanOrEqual(0.98);
    expect(outlines.either).toBeGreaterThan(1000);
    expect(outlines.iou).toBeGreaterThanOrEqual(0.98);
  });
});
