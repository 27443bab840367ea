/**
 * An HTTP source refuses answers it would otherwise misread, from a loopback server the test
 * scripts: a listing with names that walk up, hold line breaks or run past a quotable length;
 * a 206 cut shorter than asked; a HEAD without Content-Length (a compressing server), which
 * would read as an empty file; a redirect, which could point anywhere. Each is the source's
 * 503-kind error, or a name left out of the catalog.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isDataSourceUnavailable } from '../../src/plugin-contract/data-source-errors.ts';
import { createHttpSource } from '../../src/sources/http-source.ts';
import { createSourceCatalog } from '../../src/sources/source-catalog.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

type Answer = (path: string, method: string) => { status: number; headers?: Record<string, string>; body?: string };

/** A server answering each request as `answer` says; its base URL. */
async function serve(answer: Answer): Promise<string> {
  server = createServer((request, response) => {
    const { status, headers = {}, body } = answer(request.url ?? '/', request.method ?? 'GET');
    response.writeHead(status, headers).end(body);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const LAST_MODIFIED = new Date('2024-05-01T12:00:00Z').toUTCString();
const unavailable = (pattern: RegExp) => (error: unknown) => isDataSourceUnavailable(error) && pattern.test((error as Error).message);

describe('an HTTP source', () => {
  it('leaves out of its catalog, and reports, the names that walk up, hold control characters or lone surrogates, or are past 255 characters', async () => {
    const names = ['good.shp', '../up.shp', 'a\nb.shp', 'tab\t.shp', `${'x'.repeat(300)}.shp`, 'sub\\back.shp', 'odd?#%2F.shp', '\ud83d.shp'];
    const listing = names.map((name) => ({ name, type: 'file', mtime: LAST_MODIFIED, size: 4 }));
    const url = await serve(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(listing) }));
    const catalog = createSourceCatalog(createHttpSource({ url }), { catalogTtlMs: 60_000, fileCheckMs: 60_000, requestTimeoutMs: 10_000 });
    expect(await catalog.names()).toEqual(['good', 'odd?#%2F']);
    expect(catalog.health().leftOut).toHaveLength(6);
  });

  it('refuses a 206 cut shorter than asked', async () => {
    const url = await serve(() => ({ status: 206, headers: { 'content-range': 'bytes 0-3/100', 'last-modified': LAST_MODIFIED }, body: '1234' }));
    await expect(createHttpSource({ url }).read('a.shp', 0, 10, AbortSignal.timeout(10_000))).rejects.toSatisfy(unavailable(/other bytes than asked/));
  });

  it('refuses a HEAD without Content-Length rather than read an empty file', async () => {
    const url = await serve(() => ({ status: 200, headers: { 'last-modified': LAST_MODIFIED, 'transfer-encoding': 'chunked' } }));
    await expect(createHttpSource({ url }).stat('a.prj', AbortSignal.timeout(10_000))).rejects.toSatisfy(unavailable(/lacks a Content-Length/));
  });

  it('follows no redirect', async () => {
    const asked: string[] = [];
    const url = await serve((path): ReturnType<Answer> => {
      asked.push(path);
      return path === '/a.shp' ? { status: 302, headers: { location: '/elsewhere.shp' } } : { status: 206, headers: { 'content-range': 'bytes 0-0/1' }, body: 'x' };
    });
    await expect(createHttpSource({ url }).read('a.shp', 0, 1, AbortSignal.timeout(10_000))).rejects.toSatisfy(isDataSourceUnavailable);
    // The redirect's 3xx is refused as it is: its target is never asked for.
    expect(asked).toEqual(['/a.shp']);
  });

  it('takes no URL with a user or password', () => {
    expect(() => createHttpSource({ url: 'http://user:secret@127.0.0.1/shapes/' })).toThrow(/must not hold a user or password/);
  });
});
