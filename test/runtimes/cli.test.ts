import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArguments, USAGE } from '../../src/cli/arguments.ts';
import { loadConfig } from '../../src/config/load.ts';
import { DEMO_KEY } from '../../src/config/schema.ts';
import { installPacked } from '../support/packed-package.ts';
import { decodePng } from '../support/png.ts';
import { spawnServer, type SpawnedServer } from '../support/spawned-server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

afterAll(removeTempDirs);

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
 * holding one shapefile, no configuration, so the demo key works on loopback.
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
    for (const extension of ['shp', 'shx', 'dbf', 'prj', 'cpg']) {
      copyFileSync(join(REPO, 'data', `countries.${extension}`), join(folder, `my_countries.${extension}`));
    }
    server = await spawnServer(['npx', '--no', 'shapeshot', './my-shapefiles', '--port', '0'], project);
  }, 240_000);

  afterAll(() => server?.kill());

  it('prints URLs that answer with images of the shapefile in that folder', async () => {
    const urls = await Promise.all(['images', 'map'].map(async (operation) => (await server.line(new RegExp(`^Try: .*/${operation}\\?`))).slice('Try: '.length)));
    for (const url of urls) {
      expect(url).toContain(`file=my_countries&`);
      expect(url).toContain(`key=${DEMO_KEY}`);
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(decodePng(new Uint8Array(await response.arrayBuffer())).width).toBeGreaterThan(0);
    }
  });

  it('serves that folder alone, drawn with the themes that ship in the package', async () => {
    const images = (file: string) => `${server.origin}/REST/v1/shapefiles/images?file=${file}&fid=1&theme=SteelGrid&format=png&key=${DEMO_KEY}`;
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
