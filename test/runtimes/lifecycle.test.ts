import { connect } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIMES, serverCommand, type RuntimeName } from '../../bench/server-process.ts';
import { allTypes, startTileServer, type TileServer } from '../map/support.ts';
import { decodePng } from '../support/png.ts';
import { spawnServer, type SpawnedServer } from '../support/spawned-server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { until } from '../support/until.ts';

/**
 * The server as a process: SIGTERM stops it without dropping the answers in progress,
 * SIGHUP puts new keys in force without dropping any either, and two instances serving the
 * same data answer alike (as two instances behind one proxy and its shared cache must).
 * The slow requests are maps over a tile server on loopback that holds its tiles until the
 * test releases them: a map is in progress for as long as a test needs, on any machine.
 */
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'lifecycle-key-0123';
const NEW_KEY = 'lifecycle-key-4567';

let tiles: TileServer;
let folder: string;
const servers: SpawnedServer[] = [];

beforeAll(async () => {
  tiles = await startTileServer();
  folder = makeTempDir('signals-');
});

afterEach(() => {
  for (const server of servers.splice(0)) server.kill();
});

afterAll(async () => {
  await tiles.close();
  removeTempDirs();
});

/**
 * Writes a configuration file: `settings` over a key, maps drawn over the slow tiles, and
 * one drawing worker, so that /ready (a worker serves) means every worker does.
 */
function writeConfig(name: string, settings: Record<string, unknown> = {}): string {
  const file = join(folder, `${name}.json`);
  const slowTiles = { plugin: 'xyz', options: { url: tiles.template, timeoutMs: 10_000, retries: 0, cacheBytes: 0 } };
  const base = { keys: [{ key: KEY }], basemaps: { providers: { slow: slowTiles }, types: allTypes('slow') }, render: { workers: 1 } };
  writeFileSync(file, JSON.stringify({ ...base, ...settings }));
  return file;
}

/** A server on `runtime`, once ready: Deno drops a message posted to a worker that does not listen yet. */
async function start(runtime: RuntimeName, configFile: string): Promise<SpawnedServer> {
  const server = await spawnServer([...serverCommand(runtime), '--config', configFile, '--port', '0'], REPO);
  servers.push(server);
  await until(async () => (await status(`${server.origin}/ready`)) === 200);
  return server;
}

const imagesUrl = (server: SpawnedServer, key: string) => `${server.origin}/REST/v1/shapefiles/images?file=countries&fid=0&format=png&key=${key}`;
const mapUrl = (server: SpawnedServer, key: string) => `${server.origin}/REST/v1/shapefiles/map?file=countries&fid=3&size=256,256&format=png&key=${key}`;

/**
 * A map request, once the server is at work on it (waiting for its tiles, held until
 * tiles.release()). Its answer comes wrapped: an async function returning the promise
 * itself would wait for the answer.
 */
async function slowMap(server: SpawnedServer, key = KEY): Promise<{ answer: Promise<Response> }> {
  tiles.mode = 'held';
  const asked = tiles.requests.length;
  const answer = fetch(mapUrl(server, key));
  await tiles.until(() => tiles.requests.length > asked);
  return { answer };
}

/** Whether a new TCP connection to the server is refused. */
function refusesConnections(origin: string): Promise<boolean> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

async function status(url: string): Promise<number> {
  const response = await fetch(url);
  await response.arrayBuffer();
  return response.status;
}

describe('SIGTERM', () => {
  it.each(RUNTIMES)('on %s: refuses new connections, answers the request in progress in full, then exits 0', async (runtime) => {
    const server = await start(runtime, writeConfig('stop'));
    const { answer } = await slowMap(server);
    const stopping = server.nextLine(/stopping: no new connections/);
    server.process.kill('SIGTERM');
    await stopping;
    await until(() => refusesConnections(server.origin));

    tiles.release();
    const response = await answer;
    expect(response.status).toBe(200);
    const image = decodePng(new Uint8Array(await response.arrayBuffer()));
    expect([image.width, image.height]).toEqual([256, 256]);
    expect(await server.exited).toBe(0);
    // It stopped once the answer was out, not when its wait for open connections (the 15 s budget and more) ran out.
    expect(server.output()).not.toMatch(/stopping with connections still open/);
  }, 30_000);

  it('answers a request whose budget runs out while stopping with 503, then exits 0', async () => {
    // A budget far longer than a map takes to reach its tiles, which never come, once a first map
    // drawn in full has warmed what maps use (cold and under load, one may run out of budget).
    const server = await start('node', writeConfig('budget', { limits: { requestTimeoutMs: 2000 } }));
    tiles.mode = 'ok';
    while ((await status(mapUrl(server, KEY))) !== 200);
    const { answer } = await slowMap(server);
    server.process.kill('SIGTERM');
    const response = await answer;
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).not.toBeNull();
    expect(await server.exited).toBe(0);
  }, 30_000);
});

describe.skipIf(process.platform === 'win32')('SIGHUP', () => {
  it('puts new keys in force for new requests while one in progress completes; keeps the old configuration when the new one is invalid', async () => {
    const configFile = writeConfig('reload');
    const server = await start('node', configFile);
    expect(await status(imagesUrl(server, KEY))).toBe(200);
    const { answer } = await slowMap(server);

    writeConfig('reload', { keys: [{ key: NEW_KEY }] });
    const reloaded = server.nextLine(/configuration reloaded/);
    server.process.kill('SIGHUP');
    await reloaded;
    expect(await status(imagesUrl(server, KEY))).toBe(401);
    expect(await status(imagesUrl(server, NEW_KEY))).toBe(200);
    tiles.release();
    expect((await answer).status).toBe(200);

    writeConfig('reload', { keys: [{ key: 'short' }] });
    const invalid = server.nextLine(/configuration not reloaded/);
    server.process.kill('SIGHUP');
    expect(await invalid).toMatch(/keys\.0\.key/);
    expect(await status(imagesUrl(server, NEW_KEY))).toBe(200);

    // Not JSON: V8's message would quote the text around the error, the key in it. Nothing
    // else the server prints holds 'lifecycle-': not the keys, nor the folder's name.
    writeFileSync(configFile, `{ "keys": [{ "key": ${NEW_KEY} }] }`);
    const notJson = server.nextLine(/configuration not reloaded/);
    server.process.kill('SIGHUP');
    expect(await notJson).toMatch(/not valid JSON/);
    expect(server.output()).not.toContain('lifecycle-');
    expect(await status(imagesUrl(server, NEW_KEY))).toBe(200);

    writeConfig('reload', { keys: [{ key: NEW_KEY }], render: { workers: 2 } });
    const restartNeeded = server.nextLine(/only after a restart/);
    server.process.kill('SIGHUP');
    expect(JSON.parse(await restartNeeded).fields).toEqual(['render']);
    expect(await status(imagesUrl(server, NEW_KEY))).toBe(200);
  }, 30_000);
});

describe('two instances serving the same data', () => {
  it('answer byte-identical PNGs with equal ETags', async () => {
    // The embedded basemap (the default), drawn in each process: no tile server shared.
    const configFile = writeConfig('twins', { basemaps: undefined });
    const twins = await Promise.all([start('node', configFile), start('node', configFile)]);
    expect(twins[0].origin).not.toBe(twins[1].origin);
    for (const path of [
      '/REST/v1/shapefiles/images?file=benelux_rd&fid=0,1&singleImage=1&theme=OceanGrid&format=png',
      '/REST/v1/shapefiles/map?file=countries&fid=3&culture=Dutch&format=png',
    ]) {
      const answers = await Promise.all(twins.map((twin) => fetch(`${twin.origin}${path}&key=${KEY}`)));
      const bodies = await Promise.all(answers.map(async (answer) => Buffer.from(await answer.arrayBuffer())));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      expect(bodies[0].equals(bodies[1])).toBe(true);
      expect(answers[1].headers.get('etag')).toBe(answers[0].headers.get('etag'));
    }
  }, 30_000);
});
