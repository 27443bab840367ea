import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../../src/config/load.ts';
import { SAMPLE_DATA_DIR } from '../../src/config/package-folders.ts';
import { afterAll } from 'vitest';
import { makeTempDir as tempDir, removeTempDirs } from '../support/temp-dir.ts';

afterAll(removeTempDirs);

describe('configuration', () => {
  it('has working defaults: loopback, port 3000, the bundled data', () => {
    const config = loadConfig({});
    expect([config.host, config.port, config.dataDir]).toEqual(['127.0.0.1', 3000, SAMPLE_DATA_DIR]);
    // The package's own sample data, wherever the process runs from.
    expect(existsSync(join(config.dataDir, 'countries.shp'))).toBe(true);
    expect(config.limits.maxSize).toBe(4096);
    expect(config.limits.maxIds).toBe(1000);
  });

  it('takes the environment over the file', () => {
    const dir = tempDir();
    const file = `${dir}/shapeshot.json`;
    writeFileSync(file, JSON.stringify({ port: 8080, dataDir: '/srv/a', keys: [{ key: 'from-the-file' }] }));
    const config = loadConfig({
      SHAPESHOT_CONFIG: file,
      SHAPESHOT_DATA: '/srv/b',
      SHAPESHOT_HOST: '0.0.0.0',
      SHAPESHOT_PORT: '9090',
      SHAPESHOT_KEYS: 'first-key-123, second-key-456',
    });
    expect([config.host, config.port, config.dataDir]).toEqual(['0.0.0.0', 9090, '/srv/b']);
    expect(config.keys.map((key) => key.key)).toEqual(['from-the-file', 'first-key-123', 'second-key-456']);
  });

  it('names the field that is wrong', () => {
    expect(() => parseConfig({ limits: { maxSize: 0 } })).toThrow(/field 'limits.maxSize'/);
    expect(() => parseConfig({ keys: [{ sha256: 'abc' }] })).toThrow(/field 'keys.0.sha256': must be 64 hexadecimal digits/);
    expect(() => parseConfig({ keys: [{}] })).toThrow(/exactly one of 'key' or 'sha256'/);
    expect(() => parseConfig({ keys: [{ key: 'a-key-0123', quota: {} }] })).toThrow(/field 'keys.0.quota': needs 'perDay', 'perMonth' or both/);
    expect(() => parseConfig({ keys: [{ key: 'a-key-0123', quota: { perDay: 0.5 } }] })).toThrow(/field 'keys.0.quota.perDay'/);
    expect(() => parseConfig({ colour: 'red' })).toThrow(/colour/);
    expect(() => loadConfig({ SHAPESHOT_PORT: 'eighty' })).toThrow(/SHAPESHOT_PORT 'eighty'/);
  });

  it('bounds the time limits below what a timer can wait (past 2^31-1 ms one fires at once)', () => {
    expect(parseConfig({ limits: { writeStallMs: 600_000, requestTimeoutMs: 3_600_000 } }).limits).toMatchObject({ writeStallMs: 600_000, requestTimeoutMs: 3_600_000 });
    expect(() => parseConfig({ limits: { writeStallMs: 600_001 } })).toThrow(/field 'limits.writeStallMs'.*600000/);
    expect(() => parseConfig({ limits: { requestTimeoutMs: 2 ** 31 } })).toThrow(/field 'limits.requestTimeoutMs'.*3600000/);
  });

  it('names a configuration file that cannot be read or is not JSON', () => {
    expect(() => loadConfig({ SHAPESHOT_CONFIG: '/nonexistent/shapeshot.json' })).toThrow(/Cannot read configuration file/);
    const file = `${tempDir()}/broken.json`;
    writeFileSync(file, '{ not json');
    expect(() => loadConfig({ SHAPESHOT_CONFIG: file })).toThrow(/broken.json' is not a JSON object/);
  });
});
