import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../../bench/server-process.ts';
import { installPacked } from '../support/packed-package.ts';
import { decodePng } from '../support/png.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

/**
 * shapeshot and a third-party plugin installed the way a user installs them: both packed
 * (npm pack, which builds shapeshot's JavaScript), installed into a fresh project by npm,
 * the plugin (and a data-source plugin) configured by its package name, the server started from node_modules by Node,
 * Deno and Bun, none of them given TypeScript. The plugin (test/fixtures/third-party-plugin) knows shapeshot only as
 * `shapeshot/plugin`; themes and sample data must be found inside the installed package.
 */
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PLUGIN_SOURCE = fileURLToPath(new URL('../fixtures/third-party-plugin/', import.meta.url));
const DATA_SOURCE_PLUGIN = fileURLToPath(new URL('../fixtures/memory-data-source/', import.meta.url));
const KEY = 'installed-package-key-0123';
const GOLD = [255, 215, 0];
const TEAL = [0, 128, 128];

const BIN = join(REPO, 'node_modules/.bin');
const COMMANDS = {
  node: ['node_modules/.bin/shapeshot'],
  deno: [join(BIN, 'deno'), 'run', '--allow-read', '--allow-env', '--allow-sys', '--allow-net', '--allow-ffi', 'node_modules/shapeshot/dist/src/server/deno.js'],
  bun: [join(BIN, 'bun'), 'node_modules/shapeshot/dist/src/server/bun.js'],
};
const RUNTIMES = Object.keys(COMMANDS) as (keyof typeof COMMANDS)[];

let project: string;
const servers = new Map<string, ServerProcess>();

beforeAll(async () => {
  project = makeTempDir('installed-');
  installPacked(project, [PLUGIN_SOURCE, DATA_SOURCE_PLUGIN]);
  writeFileSync(
    join(project, 'shapeshot.json'),
    JSON.stringify({
      basemaps: {
        providers: { stripes: { plugin: 'shapeshot-plugin-stripes', options: { band: 16 } } },
        types: { Road: 'stripes', Aerial: 'stripes', AerialWithLabels: 'stripes' },
      },
    }),
  );
  const env = { SHAPESHOT_CONFIG: 'shapeshot.json', SHAPESHOT_PORT: '0', SHAPESHOT_KEYS: KEY, SHAPESHOT_LOG_LEVEL: 'warn' };
  const probe = `/REST/v1/shapefiles/images?file=countries&fid=0&key=${KEY}`;
  for (const runtime of RUNTIMES) servers.set(runtime, await startServerProcess(COMMANDS[runtime], env, probe, project));
  // The data of a third party's data-source plugin, installed by its package name: the repository's sample data, served from memory.
  writeFileSync(join(project, 'memory.json'), JSON.stringify({ dataSource: { plugin: 'shapeshot-source-memory', options: { folder: join(REPO, 'data') } } }));
  servers.set('memory', await startServerProcess(COMMANDS.node, { ...env, SHAPESHOT_CONFIG: 'memory.json' }, probe, project));
}, 180_000);

afterAll(async () => {
  await Promise.all([...servers.values()].map((server) => server.stop()));
  removeTempDirs();
});

describe('shapeshot installed as a package, with a plugin installed by name', () => {
  it('ships JavaScript only: no TypeScript under node_modules/shapeshot but the .d.ts', () => {
    const files = execFileSync('find', [join(project, 'node_modules/shapeshot'), '-name', '*.ts']).toString().trim().split('\n');
    expect(files.filter((file) => !file.endsWith('.d.ts'))).toEqual([]);
  });

  it.each(RUNTIMES)("draws a map over the plugin's bands on %s", async (runtime) => {
    const response = await fetch(`${servers.get(runtime)!.origin}/REST/v1/shapefiles/map?file=countries&fid=3&size=200,160&format=png&key=${KEY}`);
    expect(response.status).toBe(200);
    const image = decodePng(new Uint8Array(await response.arrayBuffer()));
    const corners = [image.pixel(2, 2), image.pixel(197, 2), image.pixel(2, 140), image.pixel(197, 140)];
    const seen = new Set(corners.map(([r, g, b]) => [r, g, b].join()));
    for (const colour of seen) expect([GOLD.join(), TEAL.join()]).toContain(colour);
    const column = Array.from({ length: 60 }, (_, y) => image.pixel(1, y + 1).slice(0, 3).join());
    expect(new Set(column)).toEqual(new Set([GOLD.join(), TEAL.join()]));
  });

  it.each(RUNTIMES)('finds the themes that ship inside the package on %s', async (runtime) => {
    const response = await fetch(`${servers.get(runtime)!.origin}/REST/v1/shapefiles/images?file=countries&fid=0&theme=SteelGrid&format=png&key=${KEY}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
  });

  it("gives a TypeScript plugin the SDK's types from the package's declarations", async () => {
    writeFileSync(
      join(project, 'typed-plugin.ts'),
      `import { definePlugin, type MapView } from 'shapeshot/plugin';
       const view: MapView = { zoom: 3, width: 1, height: 1, devicePixelRatio: 1, left: 0, top: 0, centre: { lon: 0, lat: 0 }, bounds: { west: 0, south: 0, east: 0, north: 0 } };
       // @ts-expect-error A plugin written for another SDK major version does not compile.
       export const future = definePlugin({ sdkVersion: 2, create: () => ({ name: 'x', render: async () => ({ below: {}, attribution: '' }) }) });
       // @ts-expect-error A view has no 'scale': devicePixelRatio says it.
       export const wrong: number = view.scale;
       export default definePlugin({ sdkVersion: 1, create: (_options, context) => ({ name: context.name, render: async () => ({ below: {}, attribution: String(view.zoom) }) }) });`,
    );
    const tsconfig = { compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ['typed-plugin.ts'] };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    // Unresolved declarations would make every type `any`, and the expected errors unused: tsc fails then.
    // Not execFileSync: a blocked event loop keeps fetch's pool from retiring the connections the
    // servers close after 5 s idle, and the next test's fetch would be sent on a closed one.
    await promisify(execFile)(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', project]);
  });

  it("serves the shapefiles of a data-source plugin installed by package name as the folder's own", async () => {
    const query = `file=countries&fid=3&size=120,160&format=png&key=${KEY}`;
    const fromPlugin = await fetch(`${servers.get('memory')!.origin}/REST/v1/shapefiles/images?${query}`);
    const fromFolder = await fetch(`${servers.get('node')!.origin}/REST/v1/shapefiles/images?${query}`);
    expect(fromPlugin.status).toBe(200);
    // The plugin tells no file's time: its pictures have no Last-Modified (not 1970's).
    expect([fromPlugin.headers.get('last-modified'), fromFolder.headers.has('last-modified')]).toEqual([null, true]);
    expect(Buffer.from(await fromPlugin.arrayBuffer()).equals(Buffer.from(await fromFolder.arrayBuffer()))).toBe(true);
    const ready = (await (await fetch(`${servers.get('memory')!.origin}/ready`)).json()) as { source?: string };
    expect(ready.source).toMatch(/^memory \(\d+ files\)$/);
  });

  it("names the plugin's attribution in the envelope", async () => {
    const response = await fetch(`${servers.get('node')!.origin}/REST/v1/shapefiles/map?file=countries&fid=3&format=json&key=${KEY}`);
    expect(((await response.json()) as { Copyright: string }).Copyright).toContain('Stripes Ltd.');
  });
});
