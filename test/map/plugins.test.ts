import { pino } from 'pino';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import { createBasemapRegistry } from '../../src/basemap/registry.ts';
import { quadkey, tileUrl } from '../../plugins/xyz/tile-url.ts';
import { tilesCovering } from '../../src/sdk/plugin.ts';
import { allTypes, CHECKERBOARD_PLUGIN } from './support.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

const logger = pino({ level: 'silent' });
const registry = (basemaps: Record<string, unknown>) => createBasemapRegistry(parseConfig({ basemaps }).basemaps, logger);
const board = { plugin: CHECKERBOARD_PLUGIN };
const SDK = new URL('../../src/sdk/plugin.ts', import.meta.url).href;

afterAll(removeTempDirs);

const VIEW = { zoom: 2, width: 64, height: 64, devicePixelRatio: 1, left: 0, top: 0, centre: { lon: 0, lat: 0 }, bounds: { west: 0, south: 0, east: 0, north: 0 } };

/** A plugin module written to a temporary folder, as an operator would drop one in. */
function pluginFile(source: string): string {
  const path = join(makeTempDir('plugin-'), 'index.ts');
  writeFileSync(path, source);
  return path;
}

describe('basemap configuration', () => {
  it('refuses a map type that names no configured provider', async () => {
    await expect(registry({ providers: { board }, types: { ...allTypes('board'), Aerial: 'bing' } })).rejects.toThrow(
      "Map type 'Aerial' names basemap provider 'bing', which is not configured (configured: board).",
    );
  });

  it('refuses unknown and looping fallbacks', async () => {
    await expect(registry({ providers: { board: { ...board, fallback: 'nope' } }, types: allTypes('board') })).rejects.toThrow(
      "Basemap provider 'board' falls back to 'nope', which is not configured",
    );
    const loop = { a: { ...board, fallback: 'b' }, b: { ...board, fallback: 'a' } };
    await expect(registry({ providers: loop, types: allTypes('a') })).rejects.toThrow('Basemap fallbacks loop: a -> b -> a.');
  });

  it('names the provider whose plugin cannot be found or refuses its options', async () => {
    await expect(registry({ providers: { x: { plugin: 'no-such-plugin' } }, types: allTypes('x') })).rejects.toThrow(
      /Basemap provider 'x': cannot load plugin 'no-such-plugin'/,
    );
    await expect(registry({ providers: { x: { plugin: 'xyz', options: { url: 'ftp://tiles/{z}' } } }, types: allTypes('x') })).rejects.toThrow(
      /Basemap provider 'x' \(plugin 'xyz'\) cannot start: option 'url' must be an http\(s\) URL template/,
    );
    await expect(registry({ providers: { x: { ...board, options: { cell: 0 } } }, types: allTypes('x') })).rejects.toThrow(
      /cannot start: option 'cell' must be a positive integer/,
    );
  });
});

describe('the SDK version a plugin was written for', () => {
  it('stops start-up naming the plugin and both versions when they differ', async () => {
    const path = pluginFile(`export default { sdkVersion: 99, create: () => ({ name: 'x', render: async () => ({ below: {}, attribution: '' }) }) };`);
    await expect(registry({ providers: { old: { plugin: path } }, types: allTypes('old') })).rejects.toThrow(
      `Basemap provider 'old': plugin '${path}' was written for SDK version 99; this shapeshot has SDK version 1.`,
    );
  });

  it('stops start-up when a plugin names no version', async () => {
    const path = pluginFile(`export default { create: () => ({ name: 'x', render: async () => ({ below: {}, attribution: '' }) }) };`);
    await expect(registry({ providers: { old: { plugin: path } }, types: allTypes('old') })).rejects.toThrow(
      `plugin '${path}' was written for no sdkVersion; this shapeshot has SDK version 1.`,
    );
  });
});

describe('an unavailable provider', () => {
  it('is recognised by its brand, not its class: a copy of the SDK elsewhere still hands the map to the fallback', async () => {
    const foreign = pluginFile(`
      class BasemapUnavailableError extends Error { [Symbol.for('shapeshot.basemap-unavailable')] = true; retryAfterSeconds = 5; }
      export default { sdkVersion: 1, create: () => ({ name: 'far', render: async () => { throw new BasemapUnavailableError('down'); } }) };`);
    const basemaps = await registry({ providers: { far: { plugin: foreign, fallback: 'board' }, board }, types: allTypes('far') });
    const basemap = await basemaps.render({ view: VIEW, type: 'Road', culture: 'English', signal: new AbortController().signal });
    expect(basemap.below.svg).toContain('<rect');
    await basemaps.close();
  });

  it("crosses from a plugin's worker thread as unavailability, not as a fault", async () => {
    const index = pluginFile(`
      import { createWorkerPool, SDK_VERSION } from '${SDK}';
      export default {
        sdkVersion: SDK_VERSION,
        create(options, context) {
          const pool = createWorkerPool({ entry: new URL('./worker.ts', import.meta.url), workers: 1, name: 'far', options: {} });
          return { name: context.name, render: ({ signal }) => pool.run('draw', {}, { signal }), close: () => pool.close() };
        },
      };`);
    writeFileSync(
      join(dirname(index), 'worker.ts'),
      `import { BasemapUnavailableError, serveJobs } from '${fileURLToPath(SDK)}';
       serveJobs({ draw: () => { throw new BasemapUnavailableError('far', 'its worker cannot reach the source.', 9); } });`,
    );
    const basemaps = await registry({ providers: { far: { plugin: index } }, types: allTypes('far') });
    await expect(basemaps.render({ view: VIEW, type: 'Road', culture: 'English', signal: new AbortController().signal })).rejects.toMatchObject({
      status: 503,
      message: "Basemap provider 'far' is unavailable: its worker cannot reach the source.",
      retryAfterSeconds: 9,
    });
    await basemaps.close();
  });

  it('answers 503 naming the provider when there is no fallback', async () => {
    const sdkPlugin = pluginFile(`
      import { BasemapUnavailableError, SDK_VERSION } from '${SDK}';
      export default { sdkVersion: SDK_VERSION, create: () => ({ name: 'down', render: async () => { throw new BasemapUnavailableError('down', 'the cable is cut.', 7); } }) };`);
    const basemaps = await registry({ providers: { down: { plugin: sdkPlugin } }, types: allTypes('down') });
    await expect(basemaps.render({ view: VIEW, type: 'Road', culture: 'English', signal: new AbortController().signal })).rejects.toMatchObject({
      status: 503,
      message: "Basemap provider 'down' is unavailable: the cable is cut.",
      retryAfterSeconds: 7,
    });
    await basemaps.close();
  });
});

describe('xyz tile addresses', () => {
  it('fills templates, with Bing quadkeys and a stable subdomain per tile', () => {
    expect(quadkey({ z: 3, x: 3, y: 5 })).toBe('213');
    const address = { z: 3, x: 3, y: 5, culture: 'nl' };
    expect(tileUrl('https://{s}.t/{z}/{x}/{y}/{quadkey}?mkt={culture}', address, ['a', 'b', 'c'])).toBe('https://c.t/3/3/5/213?mkt=nl');
  });

  it('wraps columns around the antimeridian and leaves out rows beyond the poles', () => {
    const view = { zoom: 1, width: 300, height: 300, devicePixelRatio: 1, left: -100, top: -50, centre: { lon: 0, lat: 0 }, bounds: { west: 0, south: 0, east: 0, north: 0 } };
    const tiles = tilesCovering(view, 19).map(({ x, y, left, top }) => [x, y, left, top]);
    // Column -1 is column 1; the 50 px above row 0 are beyond the pole; 300 px reach no further than row 0.
    expect(tiles).toEqual([
      [1, 0, -156, 50],
      [0, 0, 100, 50],
    ]);
  });

  it('scales the deepest tiles up past maxZoom', () => {
    const view = { zoom: 5, width: 100, height: 100, devicePixelRatio: 1, left: 1024, top: 2048, centre: { lon: 0, lat: 0 }, bounds: { west: 0, south: 0, east: 0, north: 0 } };
    expect(tilesCovering(view, 3)).toEqual([{ z: 3, x: 1, y: 2, left: 0, top: 0, size: 1024 }]);
  });
});
