/**
 * Issue 29's smaller items, each from a loopback source scripted by the test: a source's
 * reason phrase of 8,000 characters is quoted at most 100 characters long; AWS_ENDPOINT_URL
 * points an s3:// source at a store of one's own (no s3.endpoint configured); a source that
 * answers Range requests with the whole file makes /ready say degraded, naming it, not
 * ready; and Retry-After is sent only where retrying can help (a store failing with 5xx),
 * not for a store that refuses (403), a source that ignores Range, or a file that is no
 * shapefile. /ready's degraded answer is stated in test/support/at-size-expectations.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expectDegraded, MAX_QUOTED_REASON, sourceConfig } from '../../support/at-size-expectations.ts';
import { startHostileSource, type HostileSource, type Reply, type SeenRequest } from '../../support/hostile-source.ts';
import { namesSource, putSample } from '../../support/hostile-scenarios.ts';
import { describeAnswer, getFrom, withEnvironment, withKey } from '../../support/shapeshot-process.ts';
import { startServer, type TestServer } from '../../support/server.ts';

const servers: TestServer[] = [];
const sources: HostileSource[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(sources.splice(0).map((source) => source.stop()));
});

/** A source holding the sample countries, and shapeshot on it (one worker); `get` asks with the test key. */
async function serving(protocol: 'http' | 's3', config: Record<string, unknown> = {}) {
  const source = await startHostileSource(protocol);
  sources.push(source);
  putSample(source, 'countries', 'countries');
  const server = await startServer({ ...sourceConfig(source), render: { workers: 1 }, ...config });
  servers.push(server);
  const origin = new URL(server.url('/')).origin;
  return { source, server, get: (path: string) => getFrom(origin, withKey(path), 30_000) };
}

const image = (fid: number) => `/REST/v1/shapefiles/images?file=countries&fid=${fid}&format=json`;
const reads = (reply: Reply) => (request: SeenRequest) => (request.kind === 'range' ? reply : undefined);

describe("a source's reason phrase", () => {
  it(`of 8,000 characters is quoted at most ${MAX_QUOTED_REASON} characters long`, async () => {
    const { source, get } = await serving('http');
    // A unit no error message of ours holds: its longest run in the answer is what was quoted.
    const reason = 'qz'.repeat(4000);
    source.script(reads({ status: 403, reason }));
    const answer = await get(image(5));
    expect.soft(namesSource(answer, source), `a 503 naming the source: ${describeAnswer(answer, 200)}`).toBe(true);
    const longestRun = answer.status === 'none' ? 0 : Math.max(0, ...[...answer.text.matchAll(/(?:qz)+q?/g)].map((match) => match[0].length));
    expect.soft(longestRun, 'characters of the reason phrase quoted').toBeLessThanOrEqual(MAX_QUOTED_REASON);
  });
});

describe('AWS_ENDPOINT_URL', () => {
  it('points an s3:// data source with no s3.endpoint at that store', async () => {
    const source = await startHostileSource('s3');
    sources.push(source);
    putSample(source, 'countries', 'countries');
    // The store's address from the environment alone, as the AWS SDKs and CLI take it; the workers start with this environment.
    const restore = withEnvironment({ AWS_ENDPOINT_URL: source.endpoint, AWS_ACCESS_KEY_ID: 'hostile', AWS_SECRET_ACCESS_KEY: 'hostile-secret', AWS_REGION: 'us-east-1' });
    try {
      const server = await startServer({ dataDir: source.dataDir, render: { workers: 1 }, limits: { requestTimeoutMs: 5000 } });
      servers.push(server);
      const answer = await getFrom(new URL(server.url('/')).origin, withKey(image(0)), 30_000);
      expect.soft(answer.status, describeAnswer(answer)).toBe(200);
      expect.soft(source.requests.filter((request) => request.kind === 'listing').length, 'ListObjectsV2 asked of the store AWS_ENDPOINT_URL names').toBeGreaterThan(0);
    } finally {
      restore();
    }
  });
});

describe('a source that ignores Range', () => {
  it('makes /ready say degraded, naming the source, not ready', async () => {
    const { source, get } = await serving('http');
    source.script(reads('whole'));
    const answer = await get(image(3));
    expect.soft(namesSource(answer, source), `a 503 naming the source: ${describeAnswer(answer)}`).toBe(true);
    const ready = await get('/ready');
    if (ready.status === 'none') throw new Error(`/ready: ${describeAnswer(ready)}`);
    expectDegraded(ready, source.description);
  });
});

describe('Retry-After', () => {
  const PERMANENT: { cause: string; protocol: 'http' | 's3'; script?: (request: SeenRequest) => Reply | undefined; file?: string }[] = [
    { cause: 'a store that refuses its reads (403)', protocol: 's3', script: reads({ status: 403, reason: 'Forbidden', body: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>' }) },
    { cause: 'a server that refuses its reads (403)', protocol: 'http', script: reads({ status: 403, reason: 'Forbidden' }) },
    { cause: 'a source that ignores Range', protocol: 'http', script: reads('whole') },
    { cause: 'a file that is no shapefile', protocol: 'http', file: 'notes' },
  ];

  it.each(PERMANENT)('is not sent for $cause, which retrying cannot fix', async ({ protocol, script, file }) => {
    const { source, get } = await serving(protocol);
    source.put('notes.shp', new TextEncoder().encode(`<html><body>${'These are not the features you are looking for. '.repeat(40)}</body></html>`));
    source.script(script);
    const answer = await get(`/REST/v1/shapefiles/images?file=${file ?? 'countries'}&fid=2&format=json`);
    expect.soft(answer.status, `a failure: ${describeAnswer(answer)}`).toBeGreaterThanOrEqual(400);
    if (answer.status !== 'none') expect.soft(answer.headers['retry-after'], `no Retry-After: ${describeAnswer(answer)}`).toBeUndefined();
  });

  it('is sent for a store failing with 5xx, which retrying may fix', async () => {
    const { source, get } = await serving('s3');
    source.script(reads({ status: 503, reason: 'Slow Down', body: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>' }));
    const answer = await get(image(4));
    expect.soft(namesSource(answer, source), `a 503 naming the source: ${describeAnswer(answer)}`).toBe(true);
    if (answer.status !== 'none') expect.soft(Number(answer.headers['retry-after']), 'Retry-After').toBeGreaterThan(0);
  });
});
