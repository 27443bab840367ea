/**
 * Issue 29: a source that vanishes (the bucket deleted, the HTTP base gone: 404 to the
 * listing and to every file) after it has listed is a 503 naming the source, for every file
 * it had, not a 404 per file as if each had been removed; /ready stops saying ready. Over
 * HTTP and S3 (NoSuchBucket), with files stated on every request (fileCheckMs 0) and as
 * configured by default.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { sourceConfig } from '../../support/at-size-expectations.ts';
import { startHostileSource } from '../../support/hostile-source.ts';
import { namesSource, putSample } from '../../support/hostile-scenarios.ts';
import { describeAnswer, getFrom, withKey } from '../../support/shapeshot-process.ts';
import { startServer, type TestServer } from '../../support/server.ts';

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

const CHECKS = [
  { checked: 'files stated on every request', fileCheckMs: 0 },
  { checked: 'files stated once a second (the default)', fileCheckMs: 1000 },
];

describe.each(['http', 's3'] as const)('a source that vanishes after listing, over %s', (protocol) => {
  it.each(CHECKS)('with $checked: a 503 naming the source for every file, not a 404', async ({ fileCheckMs }) => {
    const source = await startHostileSource(protocol);
    try {
      putSample(source, 'countries', 'countries');
      putSample(source, 'centres', 'country_centres');
      const server = await startServer({ ...sourceConfig(source), fileCheckMs, render: { workers: 1 } });
      servers.push(server);
      const origin = new URL(server.url('/')).origin;
      const get = (path: string) => getFrom(origin, withKey(path), 30_000);
      for (const name of ['countries', 'centres']) {
        const before = await get(`/REST/v1/shapefiles/images?file=${name}&fid=0&format=json`);
        expect(before.status, describeAnswer(before)).toBe(200);
      }

      source.vanish();
      // Features not read before: each needs the source.
      for (const path of [
        '/REST/v1/shapefiles/images?file=countries&fid=240&format=json',
        '/REST/v1/shapefiles/images?file=centres&fid=3&format=json',
        '/ogc/collections/countries/items?f=json&limit=2&offset=100',
      ]) {
        const answer = await get(path);
        expect.soft(namesSource(answer, source), `${path}: a 503 naming ${source.description}, got ${describeAnswer(answer)}`).toBe(true);
      }
      const ready = await get('/ready');
      expect.soft(ready.status, `/ready once the source is gone: ${describeAnswer(ready)}`).toBe(503);
      if (ready.status !== 'none') expect.soft(ready.text, '/ready names the source').toContain(source.description);
    } finally {
      await source.stop();
    }
  });
});
