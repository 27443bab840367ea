/**
 * A map whose basemap fails on one tile answers at once; the fetches of its other tiles,
 * left behind by the failed Promise.all, must stop when the request ends rather than run on
 * to their own timeouts. A tile server on loopback holds every tile request, fails the first
 * once several have arrived, and reports when the others' connections close (events, no
 * timing: without the request's signal firing at its end they would hang for a minute).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtures } from '../support/fixtures.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { allTypes, mapUrl } from './support.ts';

/** Tile requests held before the first is failed: fewer than any 640 x 480 map needs (six at least). */
const HELD_BEFORE_FAILING = 4;

interface HangingTiles {
  template: string;
  /** Requests received, and those whose connection closed before an answer. */
  received: number;
  hungUp: number;
  /** Resolves once every held request (all but the failed one) has been hung up on. */
  allHungUp(): Promise<void>;
  close(): Promise<void>;
}

async function startHangingTiles(): Promise<HangingTiles> {
  const held: ServerResponse[] = [];
  const watchers = new Set<() => void>();
  const changed = () => watchers.forEach((watcher) => watcher());
  const server = createServer((request, response) => {
    state.received++;
    response.once('close', () => {
      if (!response.writableFinished) {
        state.hungUp++;
        changed();
      }
    });
    held.push(response);
    if (held.length === HELD_BEFORE_FAILING) held[0].writeHead(403).end();
  });
  const state: HangingTiles = {
    template: '',
    received: 0,
    hungUp: 0,
    allHungUp: () =>
      new Promise((resolve) => {
        const look = () => {
          if (state.received >= HELD_BEFORE_FAILING && state.hungUp === state.received - 1) {
            watchers.delete(look);
            resolve();
          }
        };
        watchers.add(look);
        look();
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.template = `http://127.0.0.1:${(server.address() as AddressInfo).port}/{z}/{x}/{y}.png`;
  return state;
}

let tiles: HangingTiles;
let server: TestServer;

beforeAll(async () => {
  tiles = await startHangingTiles();
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
    const response = await fetch(mapUrl(server, { file: 'points', fid: 0, zoom: 7, format: 'json' }));
    expect(response.status).toBe(503);
    expect((await response.json()).ErrorDetails).toMatch(/Basemap provider 'hanging' is unavailable: .*HTTP 403/);
    await tiles.allHungUp();
    expect(tiles.received).toBeGreaterThanOrEqual(HELD_BEFORE_FAILING);
    expect(tiles.hungUp).toBe(tiles.received - 1);
  }, 30_000);
});
