/**
 * Both kinds of plugin load through one loader (src/plugin-contract/load-plugin.ts), so a
 * plugin is refused alike whatever it is configured as: one that cannot be imported, one of
 * the other kind, one written for another SDK version, each named in the message, and a
 * plugin of the right kind by path is made into its source or provider.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createBasemapRegistry } from '../../src/basemap/registry.ts';
import { parseConfig } from '../../src/config/load.ts';
import { openDataSource } from '../../src/sources/registry.ts';
import { allTypes } from '../map/support.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

const logger = pino({ level: 'silent' });

afterAll(removeTempDirs);

/** A plugin module in a folder of its own, as an operator would drop one in. */
function pluginFile(source: string): string {
  const path = join(makeTempDir('plugin-'), 'index.js');
  writeFileSync(path, source);
  return path;
}

const DATA_SOURCE = pluginFile(`export default { kind: 'data', sdkVersion: 1, name: 'empty', create: (options, context) => ({
  describe: () => 'empty source ' + context.name,
  list: async () => [],
  stat: async () => undefined,
  read: async () => new Uint8Array(0),
}) };`);
const BASEMAP = pluginFile(`export default { sdkVersion: 1, create: () => ({ name: 'blank', render: async () => ({ below: {}, attribution: '' }) }) };`);
const FUTURE_SOURCE = pluginFile(`export default { kind: 'data', sdkVersion: 99, name: 'future', create: () => ({}) };`);

const openSource = (plugin: string) => openDataSource({ plugin, options: {}, userAgent: 'test' }, logger);
const basemaps = (plugin: string) => createBasemapRegistry(parseConfig({ basemaps: { providers: { x: { plugin } }, types: allTypes('x') } }).basemaps, logger);

describe('a data-source plugin', () => {
  it('is made into its source when it is one, written for this SDK', async () => {
    const source = await openSource(DATA_SOURCE);
    expect(source.describe()).toBe(`empty source ${DATA_SOURCE}`);
  });

  it('is refused, named, when it cannot be imported, is a basemap plugin, or was written for another SDK', async () => {
    await expect(openSource('no-such-data-plugin')).rejects.toThrow(/^Data source 'no-such-data-plugin' cannot start: cannot load plugin 'no-such-data-plugin': /);
    await expect(openSource(BASEMAP)).rejects.toThrow(
      `Data source '${BASEMAP}' cannot start: plugin '${BASEMAP}' has no default export that is a data-source plugin (kind: 'data' and a create(options, context) function).`,
    );
    await expect(openSource(FUTURE_SOURCE)).rejects.toThrow(`plugin '${FUTURE_SOURCE}' was written for SDK version 99; this shapeshot has SDK version 1.`);
  });
});

describe('a basemap plugin', () => {
  it('is refused, named with its provider, when it is a data-source plugin', async () => {
    await expect(basemaps(DATA_SOURCE)).rejects.toThrow(
      `Basemap provider 'x': plugin '${DATA_SOURCE}' has no default export that is a basemap plugin (a create(options, context) function, and no 'kind').`,
    );
  });
});
