import { afterEach, describe, expect, it } from 'vitest';
import { isDataSourceUnavailable } from '../../src/plugin-contract/data-source-errors.ts';
import { createHttpSource, httpVersion } from '../../src/sources/http-source.ts';
import { parseListingPage } from '../../src/sources/s3-listing.ts';
import { createSourceCatalog } from '../../src/sources/source-catalog.ts';
import { until } from '../support/until.ts';
import { startRangeServer, type RangeServer } from '../support/range-server.ts';

/**
 * Catalogs where the server has no JSON listing (a `shapeshot-catalog.json` beside the files,
 * from a loopback server that lists nothing), and the ListObjectsV2 parser on what S3 sends
 * that s3rver's keys do not show: escaped keys, the last page, an error document.
 */
let server: RangeServer | undefined;
afterEach(() => server?.stop());

describe('an HTTP source without a directory listing', () => {
  it("takes its catalog from shapeshot-catalog.json, files only (names are the catalog's to judge), with the versions stat gives", async () => {
    const catalog = [
      { name: 'a.shp', type: 'file', mtime: 'Wed, 01 May 2024 12:00:00 GMT', size: 4 },
      { name: 'sub', type: 'directory', mtime: 'Wed, 01 May 2024 12:00:00 GMT' },
      { name: '../up.shp', type: 'file', mtime: 'Wed, 01 May 2024 12:00:00 GMT', size: 4 },
    ];
    server = await startRangeServer({ 'shapeshot-catalog.json': new TextEncoder().encode(JSON.stringify(catalog)), 'a.shp': new Uint8Array([1, 2, 3, 4]) });
    const source = createHttpSource({ url: server.url });
    const listed = await source.list(AbortSignal.timeout(10_000));
    const modifiedMs = Date.parse('2024-05-01T12:00:00Z');
    expect(listed).toEqual([
      { name: 'a.shp', size: 4, version: httpVersion(4, modifiedMs), modifiedMs },
      { name: '../up.shp', size: 4, version: httpVersion(4, modifiedMs), modifiedMs },
    ]);
    // The catalog takes a listed file's entry as its stat: the two must say the same.
    const { name: _name, ...asListed } = listed[0];
    expect(await source.stat('a.shp', AbortSignal.timeout(10_000))).toEqual(asListed);
    expect(server.received.map((request) => request.path)).toEqual(['/', '/shapeshot-catalog.json', '/a.shp']);
  });

  it('without either, says what it needs', async () => {
    server = await startRangeServer({});
    await expect(createHttpSource({ url: server.url }).list(AbortSignal.timeout(10_000))).rejects.toSatisfy(
      (error: unknown) => isDataSourceUnavailable(error) && /neither a JSON directory listing .* nor a shapeshot-catalog\.json/.test((error as Error).message),
    );
  });
});

describe('a ListObjectsV2 page', () => {
  it('gives keys with their entities decoded, and the token only while truncated', () => {
    const page = (truncated: boolean) =>
      `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><IsTruncated>${truncated}</IsTruncated>` +
      '<Contents><Key>p/a&amp;b &lt;c&gt; &#233;&#x4E2D;.shp</Key><LastModified>2024-05-01T12:00:00.000Z</LastModified><ETag>&quot;abc&quot;</ETag><Size>12</Size></Contents>' +
      '<Contents><Key>p/bad.shp</Key><Size>-1</Size></Contents>' +
      '<NextContinuationToken>tok+en/=</NextContinuationToken></ListBucketResult>';
    expect(parseListingPage(page(true))).toEqual({
      objects: [{ key: 'p/a&b <c> é中.shp', size: 12, etag: '"abc"', modifiedMs: Date.parse('2024-05-01T12:00:00Z') }],
      nextToken: 'tok+en/=',
      truncated: true,
    });
    expect(parseListingPage(page(false))?.nextToken).toBeUndefined();
    expect(parseListingPage('<Error><Code>AccessDenied</Code></Error>')).toBeUndefined();
  });
});

describe("a remote source's catalog", () => {
  const LISTED = 'Wed, 01 May 2024 12:00:00 GMT';
  const catalogOf = (names: string[]) => new TextEncoder().encode(JSON.stringify(names.map((name) => ({ name, type: 'file', mtime: LISTED, size: 4 }))));

  it('is listed again in the background past fileCheckMs while requests go on with the one before, which a failed listing keeps', async () => {
    const files: Record<string, Uint8Array> = { 'shapeshot-catalog.json': catalogOf(['a.shp']), 'a.shp': new Uint8Array(4), 'b.shp': new Uint8Array(4) };
    server = await startRangeServer(files);
    const catalog = createSourceCatalog(createHttpSource({ url: server.url }), { catalogTtlMs: 60_000, fileCheckMs: 0, requestTimeoutMs: 5000 });
    expect(await catalog.names()).toEqual(['a']);
    // A file added in the store shows once a later listing has run.
    files['shapeshot-catalog.json'] = catalogOf(['a.shp', 'b.shp']);
    await until(async () => (await catalog.names()).includes('b'));
    // The store failing: the catalog stands as last listed, and says what failed.
    server.behave('fail');
    const listingsBefore = server.received.length;
    expect(await catalog.names()).toEqual(['a', 'b']);
    // Each look past fileCheckMs asks for a listing in the background; one has failed once the catalog says so.
    await until(async () => (await catalog.names()).length === 2 && catalog.health().listingProblem !== undefined);
    expect(server.received.length).toBeGreaterThan(listingsBefore);
    expect(await catalog.names()).toEqual(['a', 'b']);
    expect(catalog.health().listingProblem).toMatch(/^Data source http:\/\/127\.0\.0\.1:\d+\/ is unavailable/);
  });

  it('past catalogTtlMs is waited for, and a source that cannot list is a 503 naming it', async () => {
    server = await startRangeServer({ 'shapeshot-catalog.json': catalogOf(['a.shp']), 'a.shp': new Uint8Array(4) });
    const catalog = createSourceCatalog(createHttpSource({ url: server.url, timeoutMs: 1000 }), { catalogTtlMs: 0, fileCheckMs: 0, requestTimeoutMs: 5000 });
    expect(await catalog.names()).toEqual(['a']);
    server.behave('fail');
    const failure = await catalog.names().catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 503, message: expect.stringMatching(/^Data source http:\/\/127\.0\.0\.1:\d+\/ is unavailable/) });
  });

  it('leaves out, and reports, listed names it cannot serve, and serves the rest', async () => {
    const listing = new TextEncoder().encode(JSON.stringify(['a.shp', '\ud800.shp', 'b\nc.shp'].map((name) => ({ name, type: 'file', mtime: LISTED, size: 4 }))));
    server = await startRangeServer({ 'shapeshot-catalog.json': listing, 'a.shp': new Uint8Array(4) });
    const catalog = createSourceCatalog(createHttpSource({ url: server.url }), { catalogTtlMs: 60_000, fileCheckMs: 60_000, requestTimeoutMs: 5000 });
    expect(await catalog.names()).toEqual(['a']);
    expect(catalog.health().leftOut).toEqual(['"\\ud800.shp": not a plain, well-formed file name', '"b\\nc.shp": not a plain, well-formed file name']);
  });
});
