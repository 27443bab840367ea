/**
 * npm run bench's bulk section (issue 29, point 3): requests that need many features, cold,
 * from the local folder and from nginx by range requests (through bench/delay-proxy.ts with no
 * delay, which counts what the source served): a page of 1,000 /ogc items, and a whole-file map
 * of 100,000 polygons at 1000×1000 over tiles from a server on loopback. Each request runs in a
 * fresh server whose code, basemap and catalog were warmed on another file (squares_rd), so
 * that "cold" is the layer's data alone. The slowest /health of a poller run beside each
 * request is reported too (the event loop must not stall while a remote layer is read).
 * Targets: the page within 3× the local time plus two round trips, the map within 2×.
 */
import type { IncomingMessage } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNginx } from '../test/support/nginx.ts';
import { startDelayProxy } from './delay-proxy.ts';
import { median } from './load.ts';
import { ensureBigLayers, SQUARES, SQUARES_RD } from './big-layers.ts';
import { serverCommand, startServerProcess, type RuntimeName } from './server-process.ts';
import { startTileServer } from './tile-server-process.ts';

export interface SourceBulkBenchOptions {
  runtime: RuntimeName;
  cacheDir: string;
  key: string;
  /** Fresh servers per request and source: the median is reported. */
  runs: number;
  log: (line: string) => void;
}

export const SOURCE_BULK_HEADER = ['request', 'source', 'median ms', 'runs ms', 'range reads', 'KB read', 'slowest /health ms', 'remote / local'];

export async function runSourceBulkBench({ runtime, cacheDir, key, runs, log }: SourceBulkBenchOptions): Promise<string[][]> {
  const dataDir = ensureBigLayers(cacheDir, log);
  const tiles = await startTileServer();
  const nginx = await startNginx(dataDir);
  let reads = 0;
  let bytes = 0;
  const count = (_request: IncomingMessage, _status: number, bodyBytes: number) => {
    reads++;
    bytes += bodyBytes;
  };
  const proxy = await startDelayProxy({ target: `http://127.0.0.1:${nginx.port}`, delayMs: 0, onAnswered: count });
  const configDir = mkdtempSync(join(tmpdir(), 'shapeshot-bench-bulk-'));
  const config = join(configDir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      basemaps: {
        providers: { tiles: { plugin: 'xyz', options: { url: tiles.template, attribution: '© bench tiles' } } },
        types: { Road: 'tiles', Aerial: 'tiles', AerialWithLabels: 'tiles' },
      },
    }),
  );
  const map = (file: string) => `/REST/v1/shapefiles/map?file=${file}&size=1000,1000&format=png&key=${key}`;
  const page = (file: string) => `/ogc/collections/${file}/items?f=json&limit=1000&offset=50000&key=${key}`;
  const requests = [
    { label: '/ogc page of 1,000 items', warm: page(SQUARES_RD.file), measured: page(SQUARES.file), factor: 3 },
    { label: 'map of 100k squares', warm: map(SQUARES_RD.file), measured: map(SQUARES.file), factor: 2 },
  ];
  const rows: string[][] = [];
  try {
    for (const { label, warm, measured, factor } of requests) {
      const medians: number[] = [];
      for (const [source, data] of [
        ['local', dataDir],
        ['nginx', `${proxy.url}/files/`],
      ] as const) {
        const times: number[] = [];
        let slowest = 0;
        let read = { reads: 0, bytes: 0 };
        for (let run = 0; run < runs; run++) {
          const server = await startServerProcess(
            serverCommand(runtime),
            { SHAPESHOT_DATA: data, SHAPESHOT_KEYS: key, SHAPESHOT_PORT: '0', SHAPESHOT_LOG_LEVEL: 'warn', SHAPESHOT_CONFIG: config },
            '/ready',
          );
          try {
            await answered(server.origin + warm);
            const before = { reads, bytes };
            const poll = pollHealth(server.origin);
            const started = performance.now();
            await answered(server.origin + measured);
            times.push(performance.now() - started);
            slowest = Math.max(slowest, await poll.stop());
            read = { reads: reads - before.reads, bytes: bytes - before.bytes };
          } finally {
            await server.stop();
          }
        }
        const middle = median(times);
        medians.push(middle);
        const ratio = source === 'nginx' ? `${(middle / medians[0]).toFixed(2)} (target ≤ ${factor})` : '';
        rows.push([label, source, middle.toFixed(0), times.map((ms) => ms.toFixed(0)).join(' '), source === 'nginx' ? String(read.reads) : '', source === 'nginx' ? (read.bytes / 1024).toFixed(0) : '', slowest.toFixed(0), ratio]);
      }
    }
  } finally {
    await Promise.all([proxy.stop(), tiles.close()]);
    await nginx.stop();
  }
  return rows;
}

async function answered(url: string): Promise<void> {
  const answer = await fetch(url);
  const body = await answer.arrayBuffer();
  if (answer.status !== 200) throw new Error(`${new URL(url).pathname} answered ${answer.status}: ${new TextDecoder().decode(body).slice(0, 300)}`);
}

/** Polls /health one after another until stopped; stop() gives the slowest answer's time. */
function pollHealth(origin: string): { stop(): Promise<number> } {
  let running = true;
  let slowest = 0;
  const polling = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${origin}/health`).then((answer) => answer.arrayBuffer());
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    async stop() {
      running = false;
      await polling;
      return slowest;
    },
  };
}
