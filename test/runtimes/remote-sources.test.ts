import { cpSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverCommand, startServerProcess, type RuntimeName, type ServerProcess } from '../../bench/server-process.ts';
import { comparable } from '../support/comparable-answer.ts';
import { startNginx, type Nginx } from '../support/nginx.ts';
import { TEST_KEY } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

/**
 * The bundled samples read from nginx by range requests give, on Node, Deno and Bun, the
 * answers the local folder gives on Node: the range reads go by node:http on Node and by
 * fetch() on Deno and Bun (src/sources/source-request.ts), and this is where the two meet a
 * real server with every runtime's own client.
 */
const SAMPLES = fileURLToPath(new URL('../../data/', import.meta.url));
const RUNTIMES: RuntimeName[] = ['node', 'deno', 'bun'];

const REQUESTS = [
  'images?file=countries&fid=0,2.1&theme=SteelGrid&includeHotSpots=1',
  'images?file=benelux_rd&fid=0&singleImage=1&reduceTol=50&format=json',
  'images?file=borders&fid=0,1&lineWidth=4&format=json&includeHotSpots=1',
  "images?file=countries&where=REGION%3D'Europe'&singleImage=1&styleBy=AREA_KM2&labelField=NAME&legend=1&format=png",
  'map?file=country_centres&size=256,256&format=png',
  'images?file=nowhere&fid=0',
].map((path) => `/REST/v1/shapefiles/${path}&key=${TEST_KEY}`);

let nginx: Nginx;
let local: ServerProcess;
const remote = new Map<RuntimeName, ServerProcess>();

beforeAll(async () => {
  // A copy, served by both: the bundled folder itself would add the samples' attribution to the local answers only.
  const data = makeTempDir('shapeshot-remote-runtimes-');
  cpSync(SAMPLES, data, { recursive: true });
  nginx = await startNginx(data);
  const env = { SHAPESHOT_PORT: '0', SHAPESHOT_KEYS: TEST_KEY, SHAPESHOT_LOG_LEVEL: 'warn' };
  const started = await Promise.all([
    startServerProcess(serverCommand('node'), { ...env, SHAPESHOT_DATA: data }, REQUESTS[0]),
    ...RUNTIMES.map((runtime) => startServerProcess(serverCommand(runtime), { ...env, SHAPESHOT_DATA: nginx.url }, REQUESTS[0])),
  ]);
  local = started[0];
  RUNTIMES.forEach((runtime, i) => remote.set(runtime, started[i + 1]));
}, 90_000);

afterAll(async () => {
  await Promise.all([local, ...remote.values()].filter(Boolean).map((server) => server.stop()));
  await nginx?.stop();
  removeTempDirs();
}, 30_000);

describe('shapefiles read from nginx on Node, Deno and Bun', () => {
  it.each(REQUESTS)('give the local folder\'s answer to %s', async (path) => {
    const expected = await comparable(local, path);
    for (const runtime of RUNTIMES) expect({ runtime, ...(await comparable(remote.get(runtime)!, path)) }).toEqual({ runtime, ...expected });
  });

  it('read by range requests only', () => {
    const reads = nginx.requests().filter((request) => request.method === 'GET' && !request.uri.endsWith('/'));
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) expect([read.range.startsWith('bytes='), read.status]).toEqual([true, 206]);
  });
});
