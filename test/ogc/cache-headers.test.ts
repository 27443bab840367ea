/**
 * /ogc answers follow the images' caching rules (docs/decisions.md, "Images for screens and
 * caches"): the configured Cache-Control, `Vary: X-API-Key` when the key came in that header
 * (as /ogc clients send it, links never carrying it), and errors `no-store`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, type TestServer } from '../support/server.ts';
import { get, startOgcServer } from './support.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startOgcServer({ http: { cacheControl: 'public, max-age=60' } });
});

afterAll(() => server.close());

describe('/ogc caching headers', () => {
  it.each(['/ogc', '/ogc/conformance', '/ogc/collections', '/ogc/collections/squares', '/ogc/collections/squares/queryables', '/ogc/collections/squares/items', '/ogc/collections/squares/items/0'])(
    '%s: the configured Cache-Control, and Vary: X-API-Key for a key in that header',
    async (path) => {
      const byHeader = await get(server, path);
      expect(byHeader.status).toBe(200);
      expect(byHeader.headers.get('cache-control')).toBe('public, max-age=60');
      expect(byHeader.headers.get('vary')).toMatch(/\bX-API-Key\b/);

      const byQuery = await fetch(server.url(`${path}?key=${TEST_KEY}`));
      expect(byQuery.status).toBe(200);
      expect(byQuery.headers.get('cache-control')).toBe('public, max-age=60');
      // The key is part of the URL, which caches tell apart already.
      expect(byQuery.headers.get('vary') ?? '').not.toMatch(/X-API-Key/);
    },
  );

  it.each([
    ['/ogc/collections/nothing', 404],
    ['/ogc/collections/squares/items?limit=x', 400],
    ['/ogc/nowhere', 404],
  ])('%s: an error is never kept (no-store)', async (path, status) => {
    const answer = await get(server, path);
    expect(answer.status).toBe(status);
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('a missing key: 401, no-store', async () => {
    const answer = await fetch(server.url('/ogc/collections'));
    expect(answer.status).toBe(401);
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });
});
