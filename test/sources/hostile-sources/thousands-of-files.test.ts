/**
 * Issue 29: a bucket of thousands of shapefiles must not take /ogc down. /ogc/collections
 * is paged (limit, offset, next and prev links), a page costs the same for 3,000 files (over
 * an nginx-style JSON listing and an S3 ListObjectsV2 of as many) or an S3 listing of 100,000
 * names, the source is sent at most a few HEADs at once, the process's memory stays bounded
 * and /health under 100 ms. Node here; Deno and Bun in runtimes.test.ts. What the tests
 * expect where today's code has no hook (the page format, the bounds) is in
 * test/support/at-size-expectations.ts.
 */
import { afterAll, describe, it } from 'vitest';
import { thousandsOfFilesScenario } from '../../support/hostile-scenarios.ts';
import { removeTempDirs } from '../../support/temp-dir.ts';

afterAll(() => removeTempDirs());

describe.each(['http', 's3'] as const)('a source of 3,000 shapefiles over %s, on Node', (protocol) => {
  it('serves /ogc/collections in pages within the budget, a few HEADs at a time, in bounded memory', async () => {
    await thousandsOfFilesScenario('node', { protocol, shapefiles: 3000 });
  }, 90_000);
});

describe('an S3 listing of 100,000 names, on Node', () => {
  it('is paged as cheaply', async () => {
    // .shp alone (the .shx is rebuilt): 100,000 keys, S3's bound, in 100 ListObjectsV2 pages, all listed at start-up.
    await thousandsOfFilesScenario('node', { protocol: 's3', shapefiles: 100_000, parts: ['shp'] });
  }, 120_000);
});
