/**
 * The big-layer tests compare each picture with GDAL's rasterization in a frame they work out
 * themselves (test/support/picture-frame.ts, from the server's fit rules). This checks that
 * frame against what the server shows: the hot spots of points of the 10,000-point layer,
 * whose positions GDAL reads, land on the pixels the frame predicts, in an image of a where=
 * selection and in a map framed to the whole file. A frame off by a pixel, a zoom level or a
 * buffer fails here, before any IoU is blamed on the drawing.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigLayers, layerExtent, layerPath } from '../support/big-layers.ts';
import { startBigLayersServer, type BigLayersServer } from '../support/big-layers-server.ts';
import { imageFrame, mapFrame, pixelOf, type Frame } from '../support/picture-frame.ts';
import { removeTempDirs } from '../support/temp-dir.ts';

const run = promisify(execFile);
const LAYER = 'points10k';
const SIZE = 1000;
/** The points looked at: the first 200 of the file, spread over the whole layer (the cells were shuffled). */
const WHERE = 'v < 200';

interface HotSpot {
  FeatureId: number;
  Shape: string;
  Coords: string;
}

let server: BigLayersServer;
let points: Map<number, [number, number]>;

beforeAll(async () => {
  const { dataDir } = await bigLayers([LAYER]);
  server = await startBigLayersServer(dataDir);
  points = await pointsWhere(WHERE);
}, 120_000);
afterAll(() => {
  server?.stop();
  removeTempDirs();
});

/** The points `where` selects, as GDAL reads them: v → [x, y]. */
async function pointsWhere(where: string): Promise<Map<number, [number, number]>> {
  const { stdout } = await run('ogr2ogr', ['-f', 'CSV', '/vsistdout/', await layerPath(LAYER), '-where', where, '-lco', 'GEOMETRY=AS_XY'], { maxBuffer: 1 << 24 });
  const [header, ...rows] = stdout.trim().split('\n');
  const columns = header.split(',');
  const [x, y, v] = ['X', 'Y', 'v'].map((name) => columns.indexOf(name));
  // GDAL's CSV quotes the integers.
  const cellsOf = (row: string) => row.split(',').map((cell) => Number(cell.replace(/"/g, '')));
  return new Map(rows.map(cellsOf).map((cells) => [cells[v], [cells[x], cells[y]]]));
}

async function hotSpots(route: 'images' | 'map', query: Record<string, string | number>): Promise<HotSpot[]> {
  const answer = await server.get(route, { ...query, size: `${SIZE},${SIZE}`, includeHotSpots: 1, format: 'json' });
  const text = new TextDecoder().decode(answer.body);
  expect(answer.status, text.slice(0, 300)).toBe(200);
  return (JSON.parse(text) as { Resource: { ShapefileFeatureImages: { FeatureHotSpots: HotSpot[] }[] } }).Resource.ShapefileFeatureImages[0].FeatureHotSpots;
}

/** Each hot spot's centre lies on the pixel the frame puts its point on (hot spots are whole pixels, Math.round of the drawn position). */
function expectOnFrame(spots: HotSpot[], frame: Frame) {
  expect(spots).toHaveLength(points.size);
  let largestMiss = 0;
  for (const spot of spots) {
    expect(spot.Shape).toBe('circle');
    const [cx, cy] = spot.Coords.split(',').map(Number);
    const [x, y] = pixelOf(frame, ...points.get(spot.FeatureId)!);
    largestMiss = Math.max(largestMiss, Math.abs(cx - x), Math.abs(cy - y));
  }
  // Half a pixel is rounding; a pixel more is a wrong frame.
  expect(largestMiss).toBeLessThanOrEqual(0.5 + 1e-6);
}

describe('the frame the big-layer pictures are compared in', () => {
  it("is the image's: the selection's extent fitted into the image less 12 px on every side, centred", async () => {
    const xs = [...points.values()].map(([x]) => x);
    const ys = [...points.values()].map(([, y]) => y);
    const extent = { xmin: Math.min(...xs), ymin: Math.min(...ys), xmax: Math.max(...xs), ymax: Math.max(...ys) };
    expectOnFrame(await hotSpots('images', { file: LAYER, where: WHERE, singleImage: 1 }), imageFrame(extent, SIZE, SIZE));
  });

  it("is the whole-file map's: the largest whole zoom at which the file's extent plus 12 px fits, centred on it", async () => {
    const fids = [...points.keys()].join(',');
    const frame = mapFrame(await layerExtent(LAYER), SIZE, SIZE);
    expect(frame.zoom).toBe(12);
    expectOnFrame(await hotSpots('map', { file: LAYER, fid: fids, useBoundingBox: 1 }), frame);
  });
});
