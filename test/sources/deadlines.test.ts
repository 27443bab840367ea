/**
 * Nothing waits on a source without a deadline (issue 29, docs/configuration.md "Data
 * sources"): a deadline's signal fires even when nothing else holds it across a garbage
 * collection (cancellation/deadline-signal.ts); an attempt is given up at its timeout even
 * when the client does not let go (one-retry.ts); node:http and fetch() end a listing that
 * trickles a byte at a time at the timeout, the socket closed as the server sees it
 * (source-request.ts); and a catalog whose source never ends its listing is not stuck: the
 * listing fails at the request budget and the next request lists again (source-catalog.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { deadlineSignal } from '../../src/cancellation/deadline-signal.ts';
import { boundedBody } from '../../src/plugin-contract/bounded-body.ts';
import { isDataSourceUnavailable } from '../../src/plugin-contract/data-source-errors.ts';
import type { DataSource } from '../../src/plugin-contract/data-source-plugin.ts';
import { withOneRetry } from '../../src/sources/one-retry.ts';
import { createSourceCatalog } from '../../src/sources/source-catalog.ts';
import { fetchRequest, nodeRequest, type SourceRequest } from '../../src/sources/source-request.ts';

/** A full garbage collection, as the runtime would run one at any moment. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('a deadline', () => {
  it('fires when its time is up though nothing but its listener holds it, a garbage collection between', async () => {
    const fired = new Promise<unknown>((resolve) => deadlineSignal(50).signal.addEventListener('abort', (event) => resolve((event.target as AbortSignal).reason)));
    collectGarbage();
    await expect(fired).resolves.toMatchObject({ name: 'TimeoutError' });
  });

  it("fires with its parent's reason, and not when its time is up, once cleared", async () => {
    const parent = new AbortController();
    const child = deadlineSignal(60_000, parent.signal);
    const reason = new Error('client left');
    parent.abort(reason);
    expect([child.signal.reason, child.timedOut()]).toEqual([reason, false]);
    const cleared = deadlineSignal(0);
    cleared.clear();
    const other = deadlineSignal(10);
    await new Promise((resolve) => other.signal.addEventListener('abort', resolve));
    expect(cleared.signal.aborted).toBe(false);
  });
});

describe('one attempt and one retry', () => {
  it('are given up at their timeouts even when the attempt never lets go of its signal', async () => {
    let attempts = 0;
    const never = () => {
      attempts++;
      return new Promise<never>(() => {});
    };
    await expect(withOneRetry(never, { source: 'a source that hangs', timeoutMs: 50, signal: new AbortController().signal })).rejects.toSatisfy(
      (error: unknown) => isDataSourceUnavailable(error) && /no answer within 50 ms \(tried 2 times\)/.test((error as Error).message),
    );
    expect(attempts).toBe(2);
  });

  it("stop at once with the caller's reason when the caller's signal fires, however the attempt goes on", async () => {
    const caller = new AbortController();
    const reason = new Error('budget spent');
    const attempt = withOneRetry(() => new Promise<never>(() => caller.abort(reason)), { source: 's', timeoutMs: 60_000, signal: caller.signal });
    await expect(attempt).rejects.toBe(reason);
  });
});

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe.each([
  ['node:http', nodeRequest],
  ['fetch()', fetchRequest],
] as [string, SourceRequest][])('a listing that trickles, read by %s', (_client, send) => {
  it('is ended at the timeout, its socket closed by us, each attempt: a byte sent does not put the deadline off', async () => {
    const closedAfter: Promise<number>[] = [];
    server = createServer((_request, response) => {
      const started = performance.now();
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      const trickle = setInterval(() => response.write(' '), 20);
      closedAfter.push(
        new Promise((resolve) =>
          response.once('close', () => {
            clearInterval(trickle);
            resolve(performance.now() - started);
          }),
        ),
      );
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const timeoutMs = 300;
    const listing = withOneRetry(async (signal) => boundedBody(await send(url, {}, signal), 10_000), { source: 'the test server', timeoutMs, signal: new AbortController().signal });
    await expect(listing).rejects.toSatisfy((error: unknown) => isDataSourceUnavailable(error) && /no answer within 300 ms \(tried 2 times\)/.test((error as Error).message));
    const closed = await Promise.all(closedAfter);
    expect(closed).toHaveLength(2);
    for (const ms of closed) expect(ms).toBeLessThan(timeoutMs + 1000);
  });
});

describe('a catalog whose source does not end its listing', () => {
  it('fails the listing at the request budget, though the source ignores the signal, and lists again for the next request', async () => {
    let listings = 0;
    const hanging: DataSource = {
      describe: () => 'a plugin that ignores its signal',
      list: () => {
        listings++;
        return new Promise(() => {});
      },
      stat: () => new Promise(() => {}),
      read: () => new Promise(() => {}),
    };
    // A budget of a second: a listing that failed stands for a second before the next is asked for.
    const catalog = createSourceCatalog(hanging, { catalogTtlMs: 60_000, fileCheckMs: 0, requestTimeoutMs: 1000 });
    for (let request = 1; request <= 2; request++) {
      await expect(catalog.names()).rejects.toMatchObject({ status: 503, message: expect.stringContaining('a plugin that ignores its signal is unavailable: it did not list its catalog within 1000 ms') });
    }
    expect(listings).toBe(2);
  });

  it('gives a request that joined a listing another began, stopped at that one\'s budget, a new listing within its own', async () => {
    let listings = 0;
    const entry = { name: 'a.shp', size: 100, version: 'v1', modifiedMs: 0 };
    const slowThenQuick: DataSource = {
      describe: () => 'a plugin that hangs once',
      list: () => (++listings === 1 ? new Promise(() => {}) : Promise.resolve([entry])),
      stat: () => Promise.resolve(undefined),
      read: () => new Promise(() => {}),
    };
    const catalog = createSourceCatalog(slowThenQuick, { catalogTtlMs: 60_000, fileCheckMs: 0, requestTimeoutMs: 500 });
    const first = catalog.names(deadlineSignal(500).signal);
    const joined = catalog.names(deadlineSignal(5000).signal);
    await expect(first).rejects.toMatchObject({ name: 'TimeoutError' });
    await expect(joined).resolves.toEqual(['a']);
    expect(listings).toBe(2);
  });
});
