import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverCommand, startServerProcess, type ServerProcess } from '../../bench/server-process.ts';
import { comparable } from '../support/comparable-answer.ts';
import { TEST_KEY } from '../support/server.ts';

/**
 * The same checkout on Node, Deno and Bun, started with the README's commands, must give the
 * same answers. A fourth server runs Deno without --allow-ffi, where resvg's native addon
 * cannot load and the WebAssembly build draws instead.
 */
const SERVERS = {
  node: ['npm', 'start'],
  deno: ['node_modules/.bin/deno', 'task', 'start'],
  bun: ['node_modules/.bin/bun', 'run', 'start'],
  // deno.json's task runs with --no-prompt: refused the addon, Deno does not ask, resvg's WebAssembly draws.
  'deno, no ffi': serverCommand('deno').filter((argument) => !argument.startsWith('--allow-ffi')),
};
type ServerName = keyof typeof SERVERS;
const NAMES = Object.keys(SERVERS) as ServerName[];

/** Both operations, the legend and tiles, every format, styles, themes and classes, labels, hot spots, points, lines, polygons, errors. */
const REQUESTS = [
  'images?file=countries&fid=0,2.1&theme=SteelGrid&includeHotSpots=1',
  'images?file=benelux_rd&fid=0&singleImage=1&bgColor1=fff&bgColor2=%230000ff&bgAngle=30&reduceTol=50&format=json',
  'images?file=country_centres&fid=0,1,2&singleImage=1&size=200,300&format=png',
  'images?file=borders&fid=0,1&lineWidth=4&lineColor=green&format=json&includeHotSpots=1',
  'images?file=countries&fid=0&size=0,640&format=json',
  'images?file=nowhere&fid=0',
  'map?file=benelux_rd&fid=0,1&includeHotSpots=1',
  'map?file=countries&fid=3&culture=Dutch&format=json',
  'map?file=country_centres&size=256,256&format=png',
  "images?file=countries&where=REGION%3D'Europe'&singleImage=1&styleBy=AREA_KM2&classify=jenks&labelField=NAME&legend=1&format=png",
  'images?file=countries&fid=0,1,2,3&singleImage=1&theme=Regions&includeHotSpots=1&format=json',
  'map?file=countries&fid=3,4&styleBy=SUBREGION&labelField=NAME&legend=1&legendPosition=topleft&includeHotSpots=1',
  'legend?file=countries&styleBy=AREA_KM2&palette=viridis&culture=Dutch&format=svg',
  'legend?file=countries&theme=CountryArea&scale=2',
  "tiles/countries/3/4/2.png?styleBy=REGION&where=REGION%3D'Europe'",
  'tiles/countries/2/2/1@2x.png?theme=SteelGrid',
  'tiles/benelux_rd/7/65/42.mvt?fields=NAME&styleBy=NAME',
].map((path) => `/REST/v1/shapefiles/${path}&key=${TEST_KEY}`);

const servers = new Map<ServerName, ServerProcess>();

beforeAll(async () => {
  const env = { SHAPESHOT_PORT: '0', SHAPESHOT_KEYS: TEST_KEY, SHAPESHOT_LOG_LEVEL: 'warn' };
  const started = await Promise.allSettled(
    NAMES.map(async (name) => servers.set(name, await startServerProcess(SERVERS[name], env, REQUESTS[2]))),
  );
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}, 90_000);

afterAll(async () => {
  await Promise.all([...servers.values()].map((server) => server.stop()));
}, 30_000);

describe('Node, Deno and Bun', () => {
  it.each(REQUESTS)('give the same answer to %s', async (path) => {
    const answers = await Promise.all(NAMES.map((name) => comparable(servers.get(name)!, path)));
    expect(answers[0].body).not.toContain('iVBORw0KGgo'); // every PNG (base64 in XML) was decoded
    for (const [i, name] of NAMES.entries()) expect({ name, ...answers[i] }).toEqual({ name, ...answers[0] });
  });

  it.runIf(existsSync('/proc/self/maps'))('draw with the native resvg where it loads, else with WebAssembly', () => {
    const usesNativeResvg = (name: ServerName) =>
      servers
        .get(name)!
        .processes()
        .some((pid) => readFileSync(`/proc/${pid}/maps`, 'utf8').includes('resvgjs'));
    expect(NAMES.map((name) => [name, usesNativeResvg(name)])).toEqual([
      ['node', true],
      ['deno', true],
      ['bun', true],
      ['deno, no ffi', false],
    ]);
  });

  it('answer a request whose headers pass 16 KiB with 431: in an envelope on Node and Deno, bare on Bun (it answers before the app sees it)', async () => {
    const statuses = await Promise.all(
      NAMES.map(async (name) => {
        const { hostname, port } = new URL(servers.get(name)!.origin);
        const head = await rawHead(hostname, Number(port), `GET ${REQUESTS[0]} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
        return [name, head.status, head.envelope];
      }),
    );
    expect(statuses).toEqual([
      ['node', 431, true],
      ['deno', 431, true],
      ['bun', 431, false],
      ['deno, no ffi', 431, true],
    ]);
  });

  it('each stop on SIGTERM, with every process they started', async () => {
    for (const name of NAMES) {
      const server = servers.get(name)!;
      servers.delete(name);
      await server.stop(); // rejects if any process of the server's group outlives SIGTERM
      expect(server.processes()).toEqual([]);
    }
  }, 30_000);
});

/** The status of the answer to a raw request, and whether it came in an envelope. */
async function rawHead(host: string, port: number, request: string): Promise<{ status: number; envelope: boolean }> {
  const socket = connect(port, host);
  socket.write(request);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return { status: Number(text.split(' ', 2)[1]), envelope: text.includes('<StatusCode>431</StatusCode>') };
}
