/**
 * What a bad configuration is told with (docs/configuration.md, "Where settings come from"):
 * a misspelled field names the field meant, and a bad setting from the environment names its
 * variable (and for SHAPESHOT_KEYS, the entry) rather than a field of a file, never its value.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../../src/config/load.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

afterAll(removeTempDirs);

function messageOf(load: () => unknown): string {
  try {
    load();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('The configuration loaded.');
}

describe('an unknown field', () => {
  it.each([
    [{ limts: { maxSize: 2048 } }, "Invalid configuration: unknown field 'limts'; did you mean 'limits'?"],
    [{ Port: 8080 }, "Invalid configuration: unknown field 'Port'; did you mean 'port'?"],
    [{ limits: { maxSizee: 2048 } }, "Invalid configuration: field 'limits': unknown field 'maxSizee'; did you mean 'maxSize'?"],
    [{ keys: [{ key: 'a-long-enough-key', nmae: 'web' }] }, "Invalid configuration: field 'keys.0': unknown field 'nmae'; did you mean 'name'?"],
    [
      { basemaps: { providers: { osm: { plugin: 'xyz', optoins: {} } } } },
      "Invalid configuration: field 'basemaps.providers.osm': unknown field 'optoins'; did you mean 'options'?",
    ],
    [{ colour: 'red' }, "Invalid configuration: unknown field 'colour'"],
  ])('%j', (input, message) => {
    expect(messageOf(() => parseConfig(input))).toBe(message);
  });

  it('is named with the file it is in, each of several', () => {
    const file = `${makeTempDir()}/shapeshot.json`;
    writeFileSync(file, JSON.stringify({ prot: 8080, limits: { maxIdz: 5 } }));
    expect(messageOf(() => loadConfig({ SHAPESHOT_CONFIG: file }))).toBe(
      `Invalid ${file}: field 'limits': unknown field 'maxIdz'; did you mean 'maxIds'?; unknown field 'prot'; did you mean 'port'?`,
    );
  });
});

describe('a bad setting from the environment', () => {
  it('names the SHAPESHOT_KEYS entry that is too short and the length needed, not the key', () => {
    const message = messageOf(() => loadConfig({ SHAPESHOT_KEYS: 'a-long-enough-key, short1,,tiny' }));
    expect(message).toBe(
      'Invalid SHAPESHOT_KEYS entry 2: too short (at least 8 characters are needed). ' +
        'Invalid SHAPESHOT_KEYS entry 4: too short (at least 8 characters are needed)',
    );
    expect(message).not.toMatch(/short1|tiny/);
  });

  it("counts SHAPESHOT_KEYS's entries apart from the file's keys, and names each source", () => {
    const file = `${makeTempDir()}/shapeshot.json`;
    writeFileSync(file, JSON.stringify({ keys: [{ key: 'file-key-0123' }, { key: 'file' }] }));
    expect(messageOf(() => loadConfig({ SHAPESHOT_CONFIG: file, SHAPESHOT_KEYS: 'env' }))).toBe(
      `Invalid ${file}: field 'keys.1.key': Too small: expected string to have >=8 characters. ` +
        'Invalid SHAPESHOT_KEYS entry 1: too short (at least 8 characters are needed)',
    );
  });

  it('names the variable of another setting', () => {
    expect(messageOf(() => loadConfig({ SHAPESHOT_LOG_LEVEL: 'loud' }))).toMatch(/^Invalid SHAPESHOT_LOG_LEVEL: .*"warn"/);
  });

  it('takes limits.store from SHAPESHOT_LIMITS_STORE beside the file\'s other limits, and names it when it is wrong', () => {
    const file = `${makeTempDir('limits-store-')}/shapeshot.json`;
    writeFileSync(file, JSON.stringify({ limits: { maxSize: 800 } }));
    const config = loadConfig({ SHAPESHOT_CONFIG: file, SHAPESHOT_LIMITS_STORE: 'redis://:secret@127.0.0.1:6390' });
    expect([config.limits.store, config.limits.maxSize]).toEqual(['redis://:secret@127.0.0.1:6390', 800]);
    expect(messageOf(() => loadConfig({ SHAPESHOT_LIMITS_STORE: 'memcached://127.0.0.1' }))).toMatch(/^Invalid SHAPESHOT_LIMITS_STORE: /);
  });
});
