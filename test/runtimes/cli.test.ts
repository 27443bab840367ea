import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIMES, serverCommand } from '../../bench/server-process.ts';
import { parseArguments, USAGE } from '../../src/cli/arguments.ts';
import { dataFolderProblem } from '../../src/cli/data-folder-check.ts';
import { emptyFolderAdvice } from '../../src/cli/empty-folder-advice.ts';
import { listenProblem } from '../../src/cli/listen-problem.ts';
import { dataFolderSetting, loadConfig } from '../../src/config/load.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { startUpLines, tryLines } from '../../src/server/start-up-lines.ts';
import { WGS84_PRJ } from '../support/fixtures.ts';
import { installPacked } from '../support/packed-package.ts';
import { decodePng } from '../support/png.ts';
import { writeRawShapefile } from '../support/raw-shapefile.ts';
import { spawnServer, type SpawnedServer } from '../support/spawned-server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

afterAll(removeTempDirs);

/** Copies the sample data's countries shapefile into `folder` as `name`.*. */
function copyCountries(folder: string, name: string): void {
  for (const extension of ['shp', 'shx', 'dbf', 'prj', 'cpg']) copyFileSync(join(REPO, 'data', `countries.${extension}`), join(folder, `${name}.${extension}`));
}

/** Runs `command` in `cwd` to its end; its output as it printed it. */
function runToExit(command: readonly string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(command[0], command.slice(1), { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The start-up key in the URL a line prints. */
const keyOf = (line: string) => new URL(line.slice(line.indexOf('http'))).searchParams.get('key')!;

/** `command` with its stderr sent into its stdout: one stream keeps the order in which the lines were printed. */
const oneStream = (command: readonly string[]) => ['sh', '-c', 'exec "$@" 2>&1', 'sh', ...command];

describe('the command line', () => {
  it('takes a data folder and the options, long or short', () => {
    expect(parseArguments(['./my-shapefiles', '--port', '8080', '--host', '0.0.0.0', '--config', 'shapeshot.json'])).toEqual({
      kind: 'serve',
      settings: { dataDir: './my-shapefiles', port: 8080, host: '0.0.0.0', configFile: 'shapeshot.json' },
    });
    expect(parseArguments(['-p', '0', '-c', 'a.json', 'data'])).toEqual({ kind: 'serve', settings: { dataDir: 'data', port: 0, configFile: 'a.json' } });
    expect(parseArguments(['--port=3001'])).toEqual({ kind: 'serve', settings: { port: 3001 } });
    expect(parseArguments([])).toEqual({ kind: 'serve', settings: {} });
  });

  it('answers --help and --version, whatever else it is given', () => {
    expect(parseArguments(['--help'])).toEqual({ kind: 'help' });
    expect(parseArguments(['my-shapefiles', '-h', '--port', '1'])).toEqual({ kind: 'help' });
    expect(parseArguments(['--version'])).toEqual({ kind: 'version' });
  });

  it.each([
    [['--verbose'], /Unknown option '--verbose'/],
    [['--port'], /'-p, --port <value>' argument missing/],
    [['--port', 'http'], /Option '--port' takes a port number from 0 to 65535; got 'http'/],
    [['--port', '65536'], /got '65536'/],
    [['--host', ''], /'--host' needs an address/],
    [['one', 'two'], /one data folder; got 2: one two/],
  ])('refuses %j, saying why', (args, why) => {
    const command = parseArguments(args);
    expect(command).toEqual({ kind: 'invalid', message: expect.stringMatching(why) });
  });

  it('wins over the environment, which wins over the configuration file', () => {
    const file = join(makeTempDir(), 'shapeshot.json');
    writeFileSync(file, JSON.stringify({ port: 8080, host: '10.0.0.1', dataDir: '/srv/file', logLevel: 'warn' }));
    const env = { SHAPESHOT_CONFIG: '/nowhere/shapeshot.json', SHAPESHOT_PORT: '9090', SHAPESHOT_DATA: '/srv/environment' };
    const config = loadConfig(env, { configFile: file, port: 7070 });
    expect([config.port, config.dataDir, config.host, config.logLevel]).toEqual([7070, '/srv/environment', '10.0.0.1', 'warn']);
    expect(loadConfig(env, { configFile: file, dataDir: 'here' }).dataDir).toBe('here');
  });
});

/**
 * `npx shapeshot ./my-shapefiles`, as a user runs it after `npm install shapeshot`: the
 * package packed and installed from its tarball (JavaScript only), a folder of their own
 * holding one shapefile, no configuration, so the URLs it prints carry its start-up key.
 */
describe('npx shapeshot FOLDER, installed from the packed package', () => {
  let project: string;
  let server: SpawnedServer;
  let bin: string;

  beforeAll(async () => {
    project = makeTempDir('cli-');
    installPacked(project);
    bin = join(project, 'node_modules/.bin/shapeshot');
    const folder = join(project, 'my-shapefiles');
    mkdirSync(folder);
    copyCountries(folder, 'my_countries');
    server = await spawnServer(['npx', '--no', 'shapeshot', './my-shapefiles', '--port', '0'], project);
  }, 240_000);

  afterAll(() => server?.kill());

  it('prints URLs that answer with images of the shapefile in that folder', async () => {
    const urls = await Promise.all(['images', 'map'].map(async (operation) => (await server.line(new RegExp(`^Try: .*/${operation}\\?`))).slice('Try: '.length)));
    for (const url of urls) {
      expect(url).toContain(`file=my_countries&`);
      expect(keyOf(url)).toMatch(/^[0-9a-f]{48}$/);
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(decodePng(new Uint8Array(await response.arrayBuffer())).width).toBeGreaterThan(0);
    }
  });

  it('prints the playground and the API documentation, with the start-up key for the page to keep', async () => {
    expect(await server.line(/^shapeshot listening on/)).toMatch(/data: \.\/my-shapefiles, 1 shapefile\)$/);
    const key = keyOf(await server.line(/^Try: /));
    for (const [label, path] of [['Playground', '/'], ['API docs', '/docs']]) {
      const url = (await server.line(new RegExp(`^${label}: `))).slice(`${label}: `.length);
      expect(url).toBe(`${server.origin}${path}?key=${key}`);
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });

  it('serves that folder alone, drawn with the themes that ship in the package', async () => {
    const key = keyOf(await server.line(/^Try: /));
    const images = (file: string) => `${server.origin}/REST/v1/shapefiles/images?file=${file}&fid=1&theme=SteelGrid&format=png&key=${key}`;
    expect((await fetch(images('my_countries'))).status).toBe(200);
    expect((await fetch(images('borders'))).status).toBe(404);
  });

  it('prints its usage for --help and its version for --version, from any folder', () => {
    expect(execFileSync(bin, ['--help'], { cwd: tmpdir() }).toString()).toBe(`${USAGE}\n`);
    const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    expect(execFileSync(bin, ['--version'], { cwd: tmpdir() }).toString()).toBe(`shapeshot ${version}\n`);
  });

  it('refuses an unknown option with a message and its usage, exit status 2', () => {
    const result = spawnSync(bin, ['./my-shapefiles', '--colour', 'red'], { cwd: project });
    expect(result.status).toBe(2);
    expect(result.stdout.toString()).toBe('');
    expect(result.stderr.toString()).toMatch(/^shapeshot: Unknown option '--colour'/);
    expect(result.stderr.toString()).toContain(USAGE);
  });
});

describe('the start-up messages', () => {
  const fromCommandLine = { from: 'command line' } as const;

  it('say what to give in place of a missing folder or a file, where the folder was set', () => {
    expect(dataFolderProblem('./missing', { kind: 'missing' }, fromCommandLine)).toBe(
      './missing: no such folder. Give the folder that holds your .shp files: npx shapeshot ./data',
    );
    expect(dataFolderProblem('maps/parks.shp', { kind: 'file' }, fromCommandLine)).toBe('maps/parks.shp: a file, not a folder. Give the folder that holds it: npx shapeshot maps');
    expect(dataFolderProblem('./parks.geojson', { kind: 'file' }, fromCommandLine)).toBe(
      './parks.geojson: a file, not a folder. Give the folder that holds your .shp files: npx shapeshot ./data (ogr2ogr -f "ESRI Shapefile" ./data ./parks.geojson makes shapefiles of it)',
    );
    expect(dataFolderProblem('/srv/gone', { kind: 'missing' }, dataFolderSetting({ SHAPESHOT_DATA: '/srv/gone' }))).toBe(
      'SHAPESHOT_DATA=/srv/gone: no such folder. Set SHAPESHOT_DATA to the folder that holds your .shp files, e.g. SHAPESHOT_DATA=./data',
    );
    expect(dataFolderProblem('/srv/gone', { kind: 'unreadable', reason: 'permission denied' }, dataFolderSetting({}, { configFile: 'shapeshot.json' }))).toBe(
      '/srv/gone (dataDir in shapeshot.json): this folder cannot be read (permission denied). Set dataDir in shapeshot.json to the folder that holds your .shp files, e.g. "dataDir": "./data"',
    );
    expect(dataFolderProblem('my data/roads.dbf', { kind: 'file' }, fromCommandLine)).toMatch(/: npx shapeshot 'my data'$/);
    expect(dataFolderProblem('./data', { kind: 'folder' }, fromCommandLine)).toBeUndefined();
  });

  it('tell what to do with a folder that holds no shapefile', () => {
    expect(emptyFolderAdvice('./data', { files: [], foldersWithShapefiles: ['parks', 'roads'] })).toBe(
      './data holds no shapefiles, but its folder parks does: npx shapeshot ./data/parks',
    );
    expect(emptyFolderAdvice('./data/', { files: ['notes.txt', 'parks.geojson'], foldersWithShapefiles: [] })).toBe(
      './data/ holds no shapefiles, but parks.geojson can become one: ogr2ogr -f "ESRI Shapefile" ./data/ ./data/parks.geojson writes it there, and it is served at once, without a restart',
    );
    expect(emptyFolderAdvice('empty', { files: ['notes.txt'], foldersWithShapefiles: [] })).toBe(
      'empty holds no shapefiles yet: copy each .shp there with its .shx, .dbf and .prj, and it is served at once, without a restart',
    );
  });

  it('name the option that gets past a port or an address that cannot be listened on, and pass other errors on', () => {
    const inUse = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:3000'), { code: 'EADDRINUSE' });
    expect(listenProblem(inUse, '127.0.0.1', 3000)).toMatchObject({
      message: 'port 3000 on 127.0.0.1 is in use (by another program, or a shapeshot started earlier): start with --port 3001, or --port 0 for any free port',
      exitStatus: 1,
    });
    expect(listenProblem(inUse, '127.0.0.1', 65535)?.message).toMatch(/start with --port 0 for any free port$/);
    expect(listenProblem({ code: 'EACCES' }, '0.0.0.0', 80)?.message).toMatch(/^port 80 is reserved .*: start with --port 3000/);
    expect(listenProblem({ code: 'EADDRNOTAVAIL' }, '10.9.9.9', 3000)).toMatchObject({ message: expect.stringMatching(/^10\.9\.9\.9 is not an address of this machine: start with --host 127\.0\.0\.1/), exitStatus: 2 });
    expect(listenProblem(new Error('something else'), '127.0.0.1', 3000)).toBeUndefined();
  });

  it('list the playground, /docs and URLs of the examples with the start-up key, or what to put in an empty folder', () => {
    const facts = { origin: 'http://127.0.0.1:3000', runtime: 'Node v20', dataFolder: './data', shapefiles: ['big', 'my parks', 'roads'], startUpKey: 'K' };
    const examples = { image: { file: 'big', fid: 2 }, map: 'my parks' };
    expect([...startUpLines(facts), ...tryLines(facts, examples)]).toEqual([
      'shapeshot listening on http://127.0.0.1:3000 (Node v20; data: ./data, 3 shapefiles)',
      'Playground: http://127.0.0.1:3000/?key=K',
      'API docs: http://127.0.0.1:3000/docs?key=K',
      'Try: http://127.0.0.1:3000/REST/v1/shapefiles/images?file=big&fid=2&format=png&key=K',
      'Try: http://127.0.0.1:3000/REST/v1/shapefiles/map?file=my%20parks&format=png&key=K',
    ]);
    expect(tryLines({ ...facts, shapefiles: [] }, {})).toEqual(['Once NAME.shp is there: http://127.0.0.1:3000/REST/v1/shapefiles/images?file=NAME&fid=0&format=png&key=K']);
    // No example suits: no URL that would answer an error.
    expect(tryLines(facts, { image: examples.image })).toHaveLength(1);
  });

  it('show a placeholder for the key where keys are configured', () => {
    const facts = { origin: 'http://127.0.0.1:3000', runtime: 'Node v20', dataFolder: './data', shapefiles: ['roads'] };
    expect([...startUpLines(facts), ...tryLines(facts, { image: { file: 'roads', fid: 0 }, map: 'roads' })].slice(1)).toEqual([
      'Playground: http://127.0.0.1:3000/',
      'API docs: http://127.0.0.1:3000/docs',
      'Try: http://127.0.0.1:3000/REST/v1/shapefiles/images?file=roads&fid=0&format=png&key=<your key>',
      'Try: http://127.0.0.1:3000/REST/v1/shapefiles/map?file=roads&format=png&key=<your key>',
    ]);
  });
});

/**
 * The mistakes of a first start, made for real on each runtime (the start-up code is
 * shared): each ends with one sentence on stderr and no stack, before anything claims to
 * listen; an empty folder starts, after its warning.
 */
describe.each(RUNTIMES)('starting on %s', (runtime) => {
  const start = (...args: string[]) => runToExit([...serverCommand(runtime), ...args, '--port', '0'], REPO);

  /** Its stderr is the one sentence `expected` after "shapeshot: ", and it printed nothing else. */
  const expectOneSentence = (result: { stdout: string; stderr: string }, expected: RegExp) => {
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(expected);
  };

  it('refuses a folder that is not there, exit status 2', async () => {
    const missing = join(makeTempDir('start-'), 'missing');
    const result = await start(missing);
    expect(result.status).toBe(2);
    expectOneSentence(result, new RegExp(`^shapeshot: ${missing}: no such folder\\. Give the folder that holds your \\.shp files: npx shapeshot \\./data$`));
  });

  it('refuses a file given in place of the folder, exit status 2', async () => {
    const file = join(makeTempDir('start-'), 'parks.geojson');
    writeFileSync(file, '{"type":"FeatureCollection","features":[]}');
    const result = await start(file);
    expect(result.status).toBe(2);
    expectOneSentence(result, new RegExp(`^shapeshot: ${file}: a file, not a folder\\. Give the folder that holds your \\.shp files: npx shapeshot \\./data \\(ogr2ogr .*\\)$`));
  });

  it('refuses a port in use, naming --port, exit status 1', async () => {
    const holder = createServer();
    await new Promise<void>((listening) => holder.listen(0, '127.0.0.1', listening));
    try {
      const { port } = holder.address() as AddressInfo;
      const result = await runToExit([...serverCommand(runtime), join(REPO, 'data'), '--port', String(port)], REPO);
      expect(result.status).toBe(1);
      expectOneSentence(result, new RegExp(`^shapeshot: port ${port} on 127\\.0\\.0\\.1 is in use .*: start with --port ${port + 1}, or --port 0 for any free port$`));
    } finally {
      await new Promise((closed) => holder.close(closed));
    }
  }, 30_000);

  it('warns about an empty folder before it listens, and serves a shapefile copied there afterwards', async () => {
    const empty = makeTempDir('start-');
    const server = await spawnServer(oneStream([...serverCommand(runtime), empty, '--port', '0']), REPO);
    try {
      const lines = server.output().split('\n');
      const warning = lines.findIndex((line) => line === `shapeshot: ${empty} holds no shapefiles yet: copy each .shp there with its .shx, .dbf and .prj, and it is served at once, without a restart`);
      const listening = lines.findIndex((line) => line.startsWith('shapeshot listening on'));
      expect(warning).toBeGreaterThanOrEqual(0);
      expect(warning).toBeLessThan(listening);
      expect(lines[listening]).toMatch(/, 0 shapefiles\)$/);
      await server.line(/^API docs: /);
      const once = (await server.line(/^Once NAME\.shp is there: /)).replace(/^Once NAME\.shp is there: /, '');
      copyCountries(empty, 'mine');
      const response = await fetch(once.replace('file=NAME', 'file=mine'));
      expect(response.status).toBe(200);
      expect(decodePng(new Uint8Array(await response.arrayBuffer())).width).toBeGreaterThan(0);
    } finally {
      server.kill();
    }
  }, 30_000);
});

/**
 * Issue 31: every URL printed at start-up answers, on a folder whose first file by name is past
 * limits.maxMapFeatures (100,001 points, after a null shape) and whose second cannot be placed
 * on a map (no .prj, metres): the images URL names a feature with a shape, the map URL the
 * first file whose map can be drawn.
 */
describe('the URLs printed at start-up, on a folder of awkward files', () => {
  let server: SpawnedServer;

  beforeAll(async () => {
    const folder = makeTempDir('start-up-urls-');
    const point = (x: number, y: number) => ({ shapeType: ShapeType.Point, xy: new Float64Array([x, y]) });
    // A null shape, then 100,001 points: one past maxMapFeatures, whichever way the map counts.
    const many = Array.from({ length: 100_002 }, (_, i) => (i === 0 ? null : point(4 + (i % 1000) / 1000, 51 + Math.floor(i / 1000) / 100)));
    writeRawShapefile(join(folder, 'a_many'), ShapeType.Point, many, { prj: WGS84_PRJ });
    writeRawShapefile(join(folder, 'b_unplaced'), ShapeType.Point, [point(155_000, 463_000), point(156_000, 464_000)]);
    copyCountries(folder, 'c_countries');
    server = await spawnServer([...serverCommand('node'), folder, '--port', '0'], REPO);
  }, 60_000);

  afterAll(() => server?.kill());

  it('answer 200 each: the pages as HTML, the pictures as PNG that decode', async () => {
    const tries = await Promise.all([/^Try: .*\/images\?/, /^Try: .*\/map\?/].map(async (pattern) => (await server.line(pattern)).slice('Try: '.length)));
    const key = keyOf(tries[0]);
    expect(tries).toEqual([
      `${server.origin}/REST/v1/shapefiles/images?file=a_many&fid=1&format=png&key=${key}`,
      `${server.origin}/REST/v1/shapefiles/map?file=c_countries&format=png&key=${key}`,
    ]);
    for (const url of tries) {
      const response = await fetch(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(decodePng(new Uint8Array(await response.arrayBuffer())).width).toBeGreaterThan(0);
    }
    for (const label of ['Playground', 'API docs']) {
      const url = (await server.line(new RegExp(`^${label}: `))).slice(`${label}: `.length);
      const response = await fetch(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    }
    // What the printed URLs replaced answers errors indeed: the first file's map, the first record's image.
    expect((await fetch(`${server.origin}/REST/v1/shapefiles/map?file=a_many&format=png&key=${key}`)).status).toBe(400);
    expect((await fetch(`${server.origin}/REST/v1/shapefiles/images?file=a_many&fid=0&format=png&key=${key}`)).status).toBe(404);
    // The key is printed in those URLs and nowhere else: no log line of these requests names it.
    const printed = server.output().split('\n').filter((line) => line.includes(key));
    expect(printed.map((line) => line.slice(0, line.indexOf(':')))).toEqual(['Playground', 'API docs', 'Try', 'Try']);
  }, 60_000);
});

describe('a configuration written for the demo key', () => {
  it('starts, saying on stderr that demoKey is ignored and what replaced it', async () => {
    const config = join(makeTempDir('demo-key-config-'), 'shapeshot.json');
    writeFileSync(config, JSON.stringify({ demoKey: false, keys: [{ key: 'a-configured-key-0123' }] }));
    const server = await spawnServer([...serverCommand('node'), '--config', config, '--port', '0'], REPO);
    try {
      expect(await server.line(/demoKey/)).toBe(
        'shapeshot: the setting demoKey is ignored: the well-known demo key it switched was removed (any page could use it); ' +
          'while no keys are configured the server now makes a random start-up key and prints it in its start-up URLs. Remove demoKey from the configuration.',
      );
      // Keys configured: no start-up key, a placeholder in the URLs.
      expect(await server.line(/^Playground: /)).toBe(`Playground: ${server.origin}/`);
    } finally {
      server.kill();
    }
  }, 30_000);
});

describe('npx shapeshot in a clone', () => {
  it('runs the sources, built or not: a missing folder gets its sentence and exit status 2', async () => {
    const missing = join(makeTempDir('clone-'), 'missing');
    const result = await runToExit(['npx', '--no', 'shapeshot', missing], REPO);
    expect(result.stderr).toMatch(new RegExp(`^shapeshot: ${missing}: no such folder\\.`, 'm'));
    expect(result.status).toBe(2);
  }, 60_000);
});
