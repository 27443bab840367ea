import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShapeType } from '../../src/shapefile/types.ts';
import { createShapefileWriter } from '../../scripts/lib/shapefile-writer.ts';
import { RD_NEW_PRJ, writeFixtures } from '../support/fixtures.ts';
import { decodePng, type DecodedPng } from '../support/png.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { until } from '../support/until.ts';
import { redCentre, sameColour } from './pixels.ts';
import { CHECKERBOARD_PLUGIN, mapUrl, MARKER, startTileServer, tileColour, worldPixel, type TileServer } from './support.ts';

let tiles: TileServer;
let server: TestServer;
let dataDir: string;

beforeAll(async () => {
  tiles = await startTileServer();
  dataDir = writeFixtures();
  // The RD New origin: a control point whose WGS84 position is known (52.15517 N, 5.38721 E).
  const writer = createShapefileWriter(join(dataDir, 'rd_origin'), { shapeType: ShapeType.Point, fields: [], prj: RD_NEW_PRJ });
  writer.write({ type: 'Point', coordinates: [155000, 463000] }, {});
  writer.close();
  // Time enough for a tile on any machine: a tile server that does not answer is tested on a server of its own, below.
  const xyz = (options: Record<string, unknown>) => ({
    plugin: 'xyz',
    options: { url: tiles.template, timeoutMs: 10_000, retries: 1, ...options },
  });
  server = await startServer({
    dataDir,
    basemaps: {
      providers: {
        tiles: xyz({ attribution: 'Tiles © Test', cultures: { English: 'en-GB', Dutch: 'nl-NL' } }),
        uncached: xyz({ cacheBytes: 0 }),
        guarded: { ...xyz({ cacheBytes: 0 }), fallback: 'board' },
        board: { plugin: CHECKERBOARD_PLUGIN, options: { colour1: '#ffffff', colour2: '#ffffff', attribution: 'Board ©' } },
      },
      types: { Road: 'tiles', Aerial: 'uncached', AerialWithLabels: 'guarded' },
    },
  });
});

afterAll(async () => {
  await server.close();
  await tiles.close();
  removeTempDirs();
});

async function mapPng(query: Record<string, string | number>): Promise<DecodedPng> {
  const response = await fetch(mapUrl(server, { format: 'png', ...query }));
  expect(response.status, await response.clone().text()).toBe(200);
  return decodePng(new Uint8Array(await response.arrayBuffer()));
}

/** Every marker pixel (a tile's top-left corner) on the image. */
function markers(image: DecodedPng): [number, number][] {
  const found: [number, number][] = [];
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) if (sameColour(image.pixel(x, y), MARKER)) found.push([x, y]);
  }
  return found;
}

describe('xyz provider', () => {
  it.each([3, 9, 15])('places tile (x, y) at x*256 - left, y*256 - top at zoom %i, and the point where Web Mercator puts it', async (zoom) => {
    const image = await mapPng({ file: 'points', fid: 0, zoom });
    // One point: the view is centred on it, with the corner snapped to a whole world pixel.
    const [wx, wy] = worldPixel(5.1, 52.1, zoom);
    const left = Math.round(wx - 320);
    const top = Math.round(wy - 240);
    const expectedMarkers: [number, number][] = [];
    for (let ty = Math.ceil(top / 256); ty * 256 < top + 480; ty++) {
      for (let tx = Math.ceil(left / 256); tx * 256 < left + 640; tx++) {
        const at: [number, number] = [tx * 256 - left, ty * 256 - top];
        // A marker right under the point symbol is hidden by it.
        if (Math.hypot(at[0] - (wx - left), at[1] - (wy - top)) > 10) expectedMarkers.push(at);
        // The tile's own colour two pixels inside its corner.
        expect(image.pixel(Math.max(at[0], 0) + 2, Math.max(at[1], 0) + 2).slice(0, 3)).toEqual(tileColour(tx, ty));
      }
    }
    expect(markers(image)).toEqual(expect.arrayContaining(expectedMarkers));
    expect(markers(image)).toHaveLength(expectedMarkers.length);
    const centre = redCentre(image, wx - left, wy - top)!;
    expect(Math.abs(centre[0] - (wx - left))).toBeLessThan(0.6);
    expect(Math.abs(centre[1] - (wy - top))).toBeLessThan(0.6);
  });

  it('puts the RD New origin within 2 m of 52.15517 N, 5.38721 E', async () => {
    const zoom = 19;
    const image = await mapPng({ file: 'rd_origin', zoom });
    const found = markers(image);
    expect(found.length).toBeGreaterThan(0);
    // World pixel of the image's corner, from a marker and the tile colour beside it.
    const [mx, my] = found[0];
    const [, gx, gy] = image.pixel(mx + 2, my + 2);
    const [wx, wy] = worldPixel(5.38721, 52.15517, zoom);
    const tx = Math.round((wx - mx) / 256 - (((wx - mx) / 256 - gx) % 200));
    const ty = Math.round((wy - my) / 256 - (((wy - my) / 256 - gy) % 200));
    const [cx, cy] = redCentre(image, 320, 240)!;
    const drawnX = tx * 256 + (cx - mx);
    const drawnY = ty * 256 + (cy - my);
    const metresPerPixel = (2 * Math.PI * 6378137 * Math.cos((52.15517 * Math.PI) / 180)) / (256 * 2 ** zoom);
    expect(Math.hypot(drawnX - wx, drawnY - wy) * metresPerPixel).toBeLessThan(2);
  });

  it('asks for the culture configured for the request, with the configured User-Agent, and caches tiles', async () => {
    tiles.requests.length = 0;
    await mapPng({ file: 'points', fid: 1, zoom: 6, culture: 'Dutch' });
    expect(tiles.requests.length).toBeGreaterThan(0);
    for (const request of tiles.requests) {
      expect(request.path).toMatch(/^\/6\/\d+\/\d+\.png\?lang=nl-NL$/);
      expect(request.headers['user-agent']).toBe('shapeshot/0.1 (+https://github.com/shapeshot/shapeshot)');
    }
    const fetched = tiles.requests.length;
    await mapPng({ file: 'points', fid: 1, zoom: 6, culture: 'Dutch' });
    expect(tiles.requests).toHaveLength(fetched);
    await mapPng({ file: 'points', fid: 1, zoom: 6, culture: 'english' });
    expect(tiles.requests.slice(fetched).every((request) => request.path.endsWith('lang=en-GB'))).toBe(true);
  });

  it('draws the attribution and adds it to the Copyright', async () => {
    const response = await fetch(mapUrl(server, { file: 'points', fid: 0, zoom: 4, format: 'json' }));
    const body = await response.json();
    expect(body.Copyright).toMatch(/ Tiles © Test$/);
    const image = decodePng(Uint8Array.from(body.Resource.ShapefileFeatureImages[0].FeatureImage));
    // Light halo and dark text in the bottom-right corner; the tiles there have no bright red or white.
    let light = 0;
    for (let y = 460; y < 480; y++) for (let x = 540; x < 640; x++) if (image.pixel(x, y)[0] > 200) light++;
    expect(light).toBeGreaterThan(50);
  });

  describe('when the tile server fails', () => {
    it('answers 503 naming the provider (error), after one retry', async () => {
      tiles.mode = 'error';
      tiles.requests.length = 0;
      try {
        const response = await fetch(mapUrl(server, { file: 'points', fid: 0, zoom: 7, type: 'Aerial', format: 'json' }));
        expect(response.status).toBe(503);
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
        const body = await response.json();
        expect(body.ErrorDetails).toMatch(/^Basemap provider 'uncached' is unavailable: the tile server answered HTTP 500 \(2 attempts\)/);
        const paths = tiles.requests.map((request) => request.path);
        expect(paths.some((path) => paths.indexOf(path) !== paths.lastIndexOf(path))).toBe(true);
      } finally {
        tiles.mode = 'ok';
      }
    });

    it('uses the configured fallback provider', async () => {
      tiles.mode = 'error';
      try {
        const response = await fetch(mapUrl(server, { file: 'points', fid: 0, zoom: 7, type: 'AerialWithLabels', format: 'json' }));
        expect(response.status).toBe(200);
        const body = await response.json();
        expect(body.Copyright).toMatch(/ Board ©$/);
        const image = decodePng(Uint8Array.from(body.Resource.ShapefileFeatureImages[0].FeatureImage));
        expect(image.pixel(10, 10)).toEqual([255, 255, 255, 255]);
      } finally {
        tiles.mode = 'ok';
      }
    });
  });

  it('keeps tiles on disk when given a cache folder, and serves them from there', async () => {
    const cacheDir = makeTempDir();
    const options = { url: tiles.template, cacheBytes: 0 };
    const basemaps = { providers: { disk: { plugin: 'xyz', options } }, types: { Road: 'disk', Aerial: 'disk', AerialWithLabels: 'disk' }, cacheDir };
    const diskServer = await startServer({ dataDir, basemaps });
    // Only this map's: retries of the failed maps above may still come in.
    const zoom11 = () => tiles.requests.filter((request) => request.path.startsWith('/11/'));
    try {
      const url = mapUrl(diskServer, { file: 'points', fid: 0, zoom: 11, format: 'png' });
      const first = await fetch(url);
      expect(first.status).toBe(200);
      const fetched = zoom11().length;
      expect(fetched).toBeGreaterThan(0);
      // The tile files are written in the background: once there are as many as were fetched, all are.
      await untilFileCount(cacheDir, fetched);
      tiles.mode = 'error';
      const second = await fetch(url);
      expect(second.status).toBe(200);
      expect(zoom11()).toHaveLength(fetched);
      expect(new Uint8Array(await second.arrayBuffer())).toEqual(new Uint8Array(await first.arrayBuffer()));
    } finally {
      tiles.mode = 'ok';
      await diskServer.close();
    }
  });
});

/**
 * A tile server that holds every tile until the test is done: a tile request is then in
 * flight for as long as the test needs, whatever the machine's speed, and its end tells
 * whether the provider gave up on it (a timeout) or the map did (its signal).
 */
describe('xyz provider, when the tile server does not answer', () => {
  /** The request budget: far more than a map takes to ask for its tiles, far more than two 300 ms attempts. */
  const BUDGET_MS = 2000;
  let heldTiles: TileServer;
  let impatient: TestServer;

  beforeAll(async () => {
    heldTiles = await startTileServer();
    impatient = await startServer({
      dataDir,
      limits: { requestTimeoutMs: BUDGET_MS },
      basemaps: {
        providers: {
          patient: { plugin: 'xyz', options: { url: heldTiles.template, timeoutMs: 60_000, retries: 0, cacheBytes: 0 } },
          hasty: { plugin: 'xyz', options: { url: heldTiles.template, timeoutMs: 300, retries: 1, cacheBytes: 0 } },
        },
        types: { Road: 'patient', Aerial: 'hasty', AerialWithLabels: 'hasty' },
      },
    });
    // A first map drawn in full warms what maps use (the drawing worker, the tile connections),
    // so that the next ones reach their tiles at once. Cold and under load, one may run out of budget.
    const warmMap = () => fetch(mapUrl(impatient, { file: 'points', fid: 0, zoom: 7, format: 'png' })).then(async (response) => {
      await response.arrayBuffer();
      return response.status;
    });
    while ((await warmMap()) !== 200);
    heldTiles.mode = 'held';
  });

  afterAll(async () => {
    await impatient.close();
    await heldTiles.close();
  });

  it('answers 503 naming the provider when no tile comes within its timeoutMs, after one retry', async () => {
    const asked = heldTiles.requests.length;
    const response = await fetch(mapUrl(impatient, { file: 'points', fid: 0, zoom: 7, type: 'Aerial', format: 'json' }));
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = await response.json();
    expect(body.ErrorDetails).toBe("Basemap provider 'hasty' is unavailable: the tile server did not answer within 300 ms (2 attempts).");
    // The tile that failed the map was asked for twice.
    const paths = heldTiles.requests.slice(asked).map((request) => request.path);
    expect(paths.some((path) => paths.indexOf(path) !== paths.lastIndexOf(path))).toBe(true);
  });

  it('stops fetching the tiles of a map that ran out of time', async () => {
    // At a zoom of its own: retries of the map above may still come in.
    const ofTheMap = () => heldTiles.requests.filter((request) => request.path.startsWith('/6/'));
    const answer = fetch(mapUrl(impatient, { file: 'points', fid: 0, zoom: 6, type: 'Road', format: 'json' }));
    // The map is at its tiles, which never come, when its budget runs out.
    await heldTiles.until(() => ofTheMap().length > 0);
    const response = await answer;
    expect(response.status).toBe(503);
    expect((await response.json()).ErrorDetails).toBe("Basemap provider 'patient' is unavailable: the map ran out of time while its basemap was loading.");
    // Every tile request of the map is hung up on.
    await heldTiles.until(() => ofTheMap().every((request) => request.outcome !== 'pending'));
    expect(ofTheMap().map((request) => request.outcome)).toEqual(ofTheMap().map(() => 'abandoned'));
  });
});

/**
 * Resolves once `folder` and its subfolders hold `count` finished files. Nothing tells when
 * a file is written, and watching a tree that grows new folders misses files.
 */
function untilFileCount(folder: string, count: number): Promise<void> {
  const files = () => readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile() && !entry.name.endsWith('.partial'));
  return until(() => files().length >= count);
}
