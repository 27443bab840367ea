/**
 * A map whose basemap fails on one tile answers at once; the fetches of its other tiles,
 * left behind by the failed Promise.all, must stop when the request ends rather than run on
 * to their own timeouts. A tile server on loopback holds every tile request, fails one
 * once several have arrived, and reports when the others' connections close (events, no
 * timing: without the request's signal firing at its end they would hang for a minute).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtures } from '../support/fixtures.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { allTypes, mapUrl, startTileServer, type TileServer } from './support.ts';

/** Tile requests held before the first is failed: fewer than any 640 x 480 map needs (six at least). */
const HELD_BEFORE_FAILING = 4;

let tiles: TileServer;
let server: TestServer;

beforeAll(async () => {
  tiles = await startTileServer();
  tiles.mode = 'held';
  server = await startServer({
    dataDir: writeFixtures(),
    basemaps: {
      // A minute per tile and no retries: only the request's end can stop the held fetches in time.
      providers: { hanging: { plugin: 'xyz', options: { url: tiles.template, timeoutMs: 60_000, retries: 0, cacheBytes: 0 } } },
      types: allTypes('hanging'),
    },
  });
});

afterAll(async () => {
  await server.close();
  await tiles.close();
  removeTempDirs();
});

describe('the tiles of a map whose basemap failed', () => {
  it('are no longer fetched once the answer is sent: the tile server sees their connections close', async () => {
    const answer = fetch(mapUrl(server, { file: 'points', fid: 0, zoom: 7, format: 'json' }));
    await tiles.until(({ requests }) => requests.length >= HELD_BEFORE_FAILING);
    tiles.failFirstHeld();
    const response = await answer;
    expect(response.status).toBe(503);
    expect((await response.json()).ErrorDetails).toMatch(/Basemap provider 'hanging' is unavailable: .*HTTP 500/);
    await tiles.until(({ requests }) => requests.every((request) => request.outcome !== 'pending'));
    expect(tiles.requests.length).toBeGreaterThanOrEqual(HELD_BEFORE_FAILING);
    expect(tiles.abandoned).toBe(tiles.requests.length - 1);
  }, 30_000);
});
