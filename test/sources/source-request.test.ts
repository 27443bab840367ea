/**
 * The two clients of a range read (src/sources/source-request.ts) answer alike, from a loopback
 * server the test scripts: Node's node:http with keep-alive, which the sources use on Node,
 * and fetch(), which they use on Deno and Bun and which the rest of the suite, run on Node,
 * would otherwise never exercise. Status, headers and body as sent; no redirect followed; a
 * refused connection and a body cut off are TypeErrors with the system's code, as fetch()
 * rejects (so that one-retry.ts retries them); a body that stalls times out, twice; a fired
 * signal is its reason.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { boundedBody } from '../../src/plugin-contract/bounded-body.ts';
import { isDataSourceUnavailable } from '../../src/plugin-contract/data-source-errors.ts';
import { fetchRange } from '../../src/sources/fetch-range.ts';
import { fetchRequest, nodeRequest, type SourceRequest } from '../../src/sources/source-request.ts';
import { freePort } from '../support/nginx.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server answering as `answer` does; its base URL. */
async function serve(answer: Parameters<typeof createServer>[1]): Promise<URL> {
  server = createServer(answer);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/a.shp`);
}

const fetchFailure = (error: unknown) => error instanceof TypeError && typeof (error.cause as { code?: unknown })?.code === 'string';

describe.each([
  ['node:http', nodeRequest],
  ['fetch()', fetchRequest],
] as [string, SourceRequest][])('a range GET by %s', (_client, get) => {
  it('sends the headers and gives the status, headers and body as answered', async () => {
    let range: string | undefined;
    const url = await serve((request, response) => {
      range = request.headers.range;
      response.writeHead(206, 'Partial Content', { 'content-range': 'bytes 2-5/10', 'last-modified': 'Wed, 01 May 2024 12:00:00 GMT' }).end('3456');
    });
    const answer = await get(url, { range: 'bytes=2-5' }, AbortSignal.timeout(10_000));
    expect(range).toBe('bytes=2-5');
    expect([answer.status, answer.statusText, answer.headers.get('Content-Range'), answer.headers.get('x-none')]).toEqual([206, 'Partial Content', 'bytes 2-5/10', null]);
    expect(new TextDecoder().decode(await boundedBody(answer, 100))).toBe('3456');
  });

  it('follows no redirect: the 3xx is the answer, the target never asked', async () => {
    const asked: string[] = [];
    const url = await serve((request, response) => {
      asked.push(request.url ?? '');
      response.writeHead(request.url === '/a.shp' ? 302 : 206, { location: '/b.shp', 'content-range': 'bytes 0-0/1' }).end('x');
    });
    const answer = await get(url, {}, AbortSignal.timeout(10_000));
    await answer.body?.cancel();
    expect(answer.status).toBe(302);
    expect(asked).toEqual(['/a.shp']);
  });

  it('rejects a refused connection as fetch() does, with the code', async () => {
    const url = new URL(`http://127.0.0.1:${await freePort()}/a.shp`);
    await expect(get(url, {}, AbortSignal.timeout(10_000))).rejects.toSatisfy(fetchFailure);
  });

  it('rejects a body cut off as fetch() does', async () => {
    const url = await serve((_request, response) => {
      response.writeHead(206, { 'content-range': 'bytes 0-99/100', 'content-length': '100' });
      response.write('only ten b', () => response.destroy());
    });
    const answer = await get(url, {}, AbortSignal.timeout(10_000));
    await expect(boundedBody(answer, 1000)).rejects.toSatisfy((error: unknown) => error instanceof TypeError);
  });

  it('gives up on a body that stalls, after its timeout and one retry, with the source\'s error', async () => {
    let asked = 0;
    const url = await serve((_request, response) => {
      asked++;
      response.writeHead(206, { 'content-range': 'bytes 0-99/100', 'content-length': '100' });
      response.write('ten bytes.');
    });
    const read = fetchRange({ source: 'the test server', file: 'a.shp', offset: 0, length: 100, signal: AbortSignal.timeout(10_000), timeoutMs: 300, send: (range, signal) => get(url, { range }, signal), versionOf: () => 'v' });
    await expect(read).rejects.toSatisfy((error: unknown) => isDataSourceUnavailable(error) && /no answer within 300 ms \(tried 2 times\)/.test((error as Error).message));
    expect(asked).toBe(2);
  });

  it('stops, with the signal\'s reason, when the signal fires while the answer is awaited', async () => {
    let asked!: () => void;
    const received = new Promise<void>((resolve) => (asked = resolve));
    const url = await serve(() => asked());
    const controller = new AbortController();
    const answer = get(url, {}, controller.signal);
    await received;
    const reason = new Error('client left');
    controller.abort(reason);
    await expect(answer).rejects.toBe(reason);
  });
});
