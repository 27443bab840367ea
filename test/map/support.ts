/**
 * What map tests share: request URLs, a tile server on loopback that answers, fails or
 * holds its tiles as a test wants, and the Web Mercator arithmetic to check where things land.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { encodePng } from '../../src/raster/png.js';
import { TEST_KEY, type TestServer } from '../support/server.ts';

export const CHECKERBOARD_PLUGIN = fileURLToPath(new URL('../fixtures/plugins/checkerboard/index.ts', import.meta.url));

/** A map request for the test key. */
export function mapUrl(server: TestServer, query: Record<string, string | number>): string {
  const params = new URLSearchParams({ key: TEST_KEY, ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
  return server.url(`/REST/v1/shapefiles/map?${params}`);
}

/** Every map type served by one provider. */
export function allTypes(provider: string) {
  return { Road: provider, Aerial: provider, AerialWithLabels: provider };
}

/**
 * Tile (x, y) is filled with rgb(0, x mod 200, y mod 200); its top-left pixel is the marker
 * colour, so a test can find where the tile grid lies on a map. No red anywhere: the
 * features are red.
 */
export const MARKER: [number, number, number] = [0, 255, 255];
export const tileColour = (x: number, y: number): [number, number, number] => [0, x % 200, y % 200];

/** 'held': each tile request waits, unanswered, until release(); its client may give up first. */
export type TileMode = 'ok' | 'error' | 'held';

/** A tile request the server received, and what became of it. */
export interface TileRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** 'abandoned': the client hung up before the tile was sent. */
  outcome: 'pending' | 'answered' | 'abandoned';
}

export interface TileServer {
  template: string;
  mode: TileMode;
  requests: TileRequest[];
  /** Requests whose client hung up before the tile was sent. */
  abandoned: number;
  /** Sends the tiles of the held requests, and from now on every tile at once (mode 'ok'). */
  release(): void;
  /** Answers the first held request with a 500, holding the others. */
  failFirstHeld(): void;
  /** Resolves once `condition` holds: looked at now, and whenever a request comes or ends. */
  until(condition: (server: TileServer) => boolean): Promise<void>;
  close(): Promise<void>;
}

/**
 * A tile server on loopback: /{z}/{x}/{y}.png?lang=..., answering per `mode`; /{z}/{x}/{y}@2x.png
 * is the same tile at 512 px (its marker one pixel, as at 256). A test waits for what it
 * does (until()), never for a time: a held request is in flight for as long as the test
 * wants, on any machine.
 */
export async function startTileServer(): Promise<TileServer> {
  const tiles = new Map<string, Uint8Array>();
  const held = new Set<() => void>();
  const watchers = new Set<() => void>();
  const changed = () => {
    for (const watcher of watchers) watcher();
  };
  const server = createServer((request, response) => {
    const received: TileRequest = { path: request.url ?? '', headers: request.headers, outcome: 'pending' };
    state.requests.push(received);
    response.once('close', () => {
      received.outcome = response.writableFinished ? 'answered' : 'abandoned';
      if (received.outcome === 'abandoned') state.abandoned++;
      held.delete(send);
      changed();
    });
    const match = /^\/(\d+)\/(\d+)\/(\d+)(@2x)?\.png/.exec(request.url ?? '');
    const send = () => {
      if (state.mode === 'error' || !match) {
        response.writeHead(match ? 500 : 404).end();
        return;
      }
      const [z, x, y] = match.slice(1, 4).map(Number);
      const size = match[4] ? 512 : 256;
      const key = `${z}/${x}/${y}/${size}`;
      let tile = tiles.get(key);
      if (!tile) {
        tile = makeTile(x, y, size);
        tiles.set(key, tile);
      }
      response.writeHead(200, { 'Content-Type': 'image/png' }).end(tile);
    };
    if (state.mode === 'held') held.add(send);
    else send();
    changed();
  });
  const state: TileServer = {
    template: '',
    mode: 'ok',
    requests: [],
    abandoned: 0,
    release() {
      state.mode = 'ok';
      const waiting = [...held];
      held.clear();
      for (const send of waiting) send();
    },
    failFirstHeld() {
      const [first] = held;
      held.delete(first);
      state.mode = 'error';
      first();
      state.mode = 'held';
    },
    until: (condition) =>
      new Promise((resolve) => {
        const look = () => {
          if (!condition(state)) return;
          watchers.delete(look);
          resolve();
        };
        watchers.add(look);
        look();
      }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.template = `http://127.0.0.1:${(server.address() as AddressInfo).port}/{z}/{x}/{y}.png?lang={culture}`;
  return state;
}

function makeTile(x: number, y: number, size: number): Uint8Array {
  const rgba = new Uint8Array(size * size * 4);
  const [r, g, b] = tileColour(x, y);
  for (let i = 0; i < rgba.length; i += 4) rgba.set([r, g, b, 255], i);
  rgba.set([...MARKER, 255], 0);
  return encodePng(rgba, size, size, 1);
}

/** World pixel of a lon/lat at `zoom`: Web Mercator with 256-px tiles, written out independently. */
export function worldPixel(lon: number, lat: number, zoom: number): [number, number] {
  const size = 256 * 2 ** zoom;
  const phi = (lat * Math.PI) / 180;
  return [((lon + 180) / 360) * size, ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * size];
}
