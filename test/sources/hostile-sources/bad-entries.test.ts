/**
 * Issue 29: one bad entry must not fail the whole list. A source whose listing holds a name
 * with a lone surrogate (JSON "\ud800.shp", an XML character reference in S3's listing: no
 * name any URL can carry) and an object that answers 403 to HEAD and GET lists and serves the
 * rest of its catalog; the bad files are left out of /ogc/collections, and /ready names the
 * one that fails its check and says the instance is degraded. Over HTTP (an nginx-style JSON
 * listing) and S3, from a loopback server scripted by the test. What /ready's degraded answer
 * looks like is stated in test/support/at-size-expectations.ts (expectDegraded). On Node, Deno
 * and Bun, shapeshot as a process of its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RUNTIMES } from '../../../bench/server-process.ts';
import { expectDegraded, sourceConfig } from '../../support/at-size-expectations.ts';
import { startHostileSource } from '../../support/hostile-source.ts';
import { putSample } from '../../support/hostile-scenarios.ts';
import { describeAnswer, startShapeshot, type ShapeshotProcess } from '../../support/shapeshot-process.ts';

const running: ShapeshotProcess[] = [];
afterEach(() => running.splice(0).forEach((server) => server.stop()));

const LONE_SURROGATE = '\ud800';

/** Each bad entry alone, so that a failure says which one takes the list down. */
const BAD_ENTRIES = [
  { bad: 'a name with a lone surrogate', name: LONE_SURROGATE, forbidden: false },
  { bad: 'an object that answers 403', name: 'forbidden', forbidden: true },
];

describe.each(RUNTIMES)('on %s', (runtime) => {
describe.each(['http', 's3'] as const)('a listing with a bad entry, over %s', (protocol) => {
  it.each(BAD_ENTRIES)('$bad: the rest is listed and served, the bad file left out of /ogc/collections (and named on /ready when it fails its check)', async ({ name, forbidden }) => {
    const source = await startHostileSource(protocol);
    try {
      putSample(source, 'alpha', 'country_centres');
      putSample(source, 'beta', 'benelux_rd');
      putSample(source, name, 'country_centres', ['shp', 'shx', 'dbf']);
      const denied =
        protocol === 's3'
          ? '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>'
          : '<html>403 Forbidden</html>';
      if (forbidden) source.script((request) => (request.name === `${name}.shp` ? { status: 403, reason: 'Forbidden', body: denied } : undefined));
      // fileCheckMs 0: every request states the files it lists (today, a HEAD of each).
      const server = await startShapeshot(runtime, { ...sourceConfig(source), fileCheckMs: 0, render: { workers: 1 } });
      running.push(server);
      const get = (path: string) => server.get(path, 30_000);

      const collections = await get('/ogc/collections?f=json');
      expect.soft(collections.status, `/ogc/collections: ${describeAnswer(collections)}`).toBe(200);
      if (collections.status === 200) {
        const ids = (JSON.parse(collections.text) as { collections: { id: string }[] }).collections.map((collection) => collection.id);
        expect.soft(ids, '/ogc/collections lists the good files and leaves the bad one out').toEqual(['alpha', 'beta']);
      }
      for (const good of ['alpha', 'beta']) {
        const image = await get(`/REST/v1/shapefiles/images?file=${good}&fid=0&format=json`);
        expect.soft(image.status, `${good}: ${describeAnswer(image)}`).toBe(200);
        const items = await get(`/ogc/collections/${good}/items?f=json&limit=2`);
        expect.soft(items.status, `${good}'s items: ${describeAnswer(items)}`).toBe(200);
      }
      if (forbidden) {
        const ready = await get('/ready');
        if (ready.status === 'none') throw new Error(`/ready: ${describeAnswer(ready)}`);
        expectDegraded(ready, name, source.description);
      }
    } finally {
      await source.stop();
    }
  });
});
});
