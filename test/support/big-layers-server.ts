/**
 * The server the big-layer tests draw from: the real entry point as its own process (its
 * event loop is then its own, and the test's work cannot stall it, nor its stalls the
 * test), serving the big layers' folder with one configured key, over a transparent
 * basemap: the checkerboard test plugin, loaded by path, with both colours `none` and no
 * attribution, so that a map's alpha is its features' mask. Limits are the defaults, with
 * whatever a test changes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sendRaw } from './raw-request.ts';
import { spawnServer, type SpawnedServer } from './spawned-server.ts';
import { TEST_KEY } from './server.ts';
import { makeTempDir } from './temp-dir.ts';
import { until } from './until.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CHECKERBOARD_PLUGIN = fileURLToPath(new URL('../fixtures/plugins/checkerboard/index.ts', import.meta.url));

/** Past the server's own limits.requestTimeoutMs (15 s), with room for a loaded machine: a hang fails, it is not waited out. */
const ANSWER_WITHIN_MS = 120_000;

export interface Answer {
  status: number;
  body: Uint8Array;
  /** From the request sent to the answer's last byte. */
  ms: number;
}

export interface BigLayersServer {
  server: SpawnedServer;
  origin: string;
  /**
   * GET /REST/v1/shapefiles/ROUTE with `query` and the key, on a connection of its own (a
   * kept-alive one may be closed by the server just as it is reused, after a long wait).
   */
  get(route: 'images' | 'map', query: Record<string, string | number>): Promise<Answer>;
  stop(): void;
}

export async function startBigLayersServer(dataDir: string, limits: Record<string, number> = {}): Promise<BigLayersServer> {
  const configFile = join(makeTempDir('shapeshot-big-layers-config-'), 'config.json');
  const clear = 'clear';
  writeFileSync(
    configFile,
    JSON.stringify({
      dataDir,
      keys: [{ key: TEST_KEY }],
      logLevel: 'error',
      limits,
      basemaps: {
        providers: { [clear]: { plugin: CHECKERBOARD_PLUGIN, options: { colour1: 'none', colour2: 'none', attribution: '' } } },
        types: { Road: clear, Aerial: clear, AerialWithLabels: clear },
      },
    }),
  );
  const server = await spawnServer(['node', '--single-threaded-gc', '--import', 'tsx', 'src/server/node.ts', '--config', configFile, '--port', '0'], REPO);
  await untilReady(server.origin);
  return {
    server,
    origin: server.origin,
    async get(route, query) {
      const params = new URLSearchParams({ key: TEST_KEY, ...Object.fromEntries(Object.entries(query).map(([name, value]) => [name, String(value)])) });
      const started = performance.now();
      const outcome = await sendRaw(server.origin, { method: 'GET', target: `/REST/v1/shapefiles/${route}?${params}`, headers: {} }, ANSWER_WITHIN_MS).outcome;
      if (outcome.kind === 'failed') throw new Error(`${route}?${params}: ${outcome.reason}`);
      return { status: outcome.status, body: new Uint8Array(outcome.body), ms: performance.now() - started };
    },
    stop: () => server.kill(),
  };
}

/** /ready answers 200 once a drawing worker serves. */
function untilReady(origin: string): Promise<void> {
  return until(async () => {
    const response = await fetch(`${origin}/ready`);
    await response.arrayBuffer();
    return response.status === 200;
  });
}
