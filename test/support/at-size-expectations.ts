/**
 * ============================================================================================
 * ONE PLACE to align: what the tests of issue 29 ("Sources at size and under faults",
 * test/sources/hostile-sources/) expect where today's main has no hook, no format or no
 * number yet. Each item says what it stands for, what today's main does, and why the value.
 * Change an item here (not in the tests) when what is built says it differently; the tests
 * read everything below from this file.
 * ============================================================================================
 */
import { expect } from 'vitest';
import type { HostileSource } from './hostile-source.ts';

/**
 * The configuration that serves `source`, with its own per-request deadline `timeoutMs` (the
 * source's `timeoutMs`: each request to it, listing, HEAD or range, is ended by us after this).
 * Today a `dataDir` URL has no setting for it: `dataSource` naming the built-in plugin
 * ('http', 's3') passes its options (HttpSourceOptions, S3SourceOptions: url, endpoint,
 * timeoutMs) to the source on both threads. Without `timeoutMs`, plain `dataDir` (and
 * `s3.endpoint`), as a user configures it.
 */
export function sourceConfig(source: HostileSource, { timeoutMs }: { timeoutMs?: number } = {}): Record<string, unknown> {
  if (timeoutMs === undefined) {
    return source.protocol === 'http' ? { dataDir: source.dataDir } : { dataDir: source.dataDir, s3: { endpoint: source.endpoint } };
  }
  const options = source.protocol === 'http' ? { url: source.dataDir, timeoutMs } : { url: source.dataDir, endpoint: source.endpoint, timeoutMs };
  return { dataSource: { plugin: source.protocol, options } };
}

/**
 * "At most a few HEADs in flight per source" (issue 29, point 2): today /ogc/collections sends
 * one HEAD per file of every shapefile at once (766 in flight at the test's store, 3,907
 * requests of all kinds). The openings are fetched four shapefiles at a time; twice that is
 * still "a few".
 */
export const MAX_HEADS_IN_FLIGHT = 8;
/** All requests to the source in flight at once while /ogc/collections pages are asked: a few per worker, not one per file. */
export const MAX_REQUESTS_IN_FLIGHT = 64;

/**
 * How far the server's resident set (VmHWM at the end, less VmRSS before the work, worker
 * threads included) may grow while a bucket of thousands of files is paged through. A page
 * of ten collections is a few KB; the caches that may fill meanwhile are bounded (the
 * openings' 8 MiB on the main thread; each worker's blocks, 64 MiB, filled only by reads,
 * which a few pages barely make). Past this, the process is holding something per file of
 * the whole bucket: today it grew 190 -> 517-792 MB with 3,000 shapefiles and past 2 GB with
 * 100,000 names (the issue saw 300 MB -> 1.2 GB).
 */
export const MAX_RESIDENT_GROWTH_BYTES = 200 * 1024 * 1024;

/**
 * /ogc/collections in pages (issue 29, point 2; OGC API – Features Part 1 pages items, not
 * collections, so this follows its items: `limit` and `offset` in the query, `next` and
 * `prev` links, `numberMatched` optional). Today the route takes no `limit` or `offset`
 * (400 "'limit' is no parameter of this resource"). Without `limit`, a page holds at most
 * `ogc.maxLimit` (1000) collections from a data folder, and 100 from a remote source, which
 * these scenarios read: there each collection's feature count reads its whole .dbf, and a page
 * of 1,000 from the bucket of 3,000 took 5 to 9 s of the 10 s budget over HTTP (over S3, past
 * it) and 150 to 190 MB more memory, on two busy cores; docs/ogc.md, "Collections".
 */
export const COLLECTIONS_PAGES = {
  path: (limit: number, offset = 0) => `/ogc/collections?f=json&limit=${limit}&offset=${offset}`,
  /** The most collections a page asked without `limit` may hold (from a remote source). */
  maxDefaultPage: 100,
};

export interface CollectionsPage {
  collections: { id: string }[];
  links: { rel: string; href: string }[];
  numberMatched?: number;
}

/** A link of a page by its relation, as a path and query of this server (`next`, `prev`). */
export function pageLink(page: CollectionsPage, rel: 'next' | 'prev'): string | undefined {
  const href = page.links.find((link) => link.rel === rel)?.href;
  if (href === undefined) return undefined;
  const url = new URL(href, 'http://server');
  return `${url.pathname}${url.search}`;
}

/**
 * /ready when the instance serves but part of its data does not (a file that fails its
 * check, left out of the listings; a source that ignores Range): 200, so that a load
 * balancer keeps the instance, `status` 'degraded' (today: 'ready' or 'not ready'), and the
 * body names what is wrong (the file's name; the source as its describe() says). Today's
 * /ready answers {"status":"ready","source":…,"checks":{…}} whenever the source lists.
 */
export function expectDegraded(ready: { status: number; text: string }, ...named: string[]): void {
  expect.soft(ready.status, ready.text).toBe(200);
  expect.soft((JSON.parse(ready.text) as { status?: unknown }).status, ready.text).toBe('degraded');
  for (const name of named) expect.soft(ready.text, `/ready names '${name}'`).toContain(name);
}

/**
 * The S3 listing's bound counts pages as well as keys (issue 29, point 2): today it counts
 * objects only, so pages of CommonPrefixes alone, or empty pages with IsTruncated, are read for
 * ever (21,021 pages in 60 s). The default bound of 100,000 keys is 100 pages of S3's 1,000;
 * the refusal is a 503 naming the source and the bound in words that say pages.
 */
export const MAX_LISTING_PAGES = 100;
export const LISTING_BOUND_WORDS = /\bpages?\b/i;

/** docs/decisions.md: a source's words (an HTTP reason phrase) are quoted at most this long in an error. */
export const MAX_QUOTED_REASON = 100;

/**
 * Slack on a loaded machine (2 cores beside busy loops) between a deadline and what a client
 * or the source sees of it: an answer due at the request's budget comes within this after it,
 * a socket due to be ended at the source's timeout is closed within this after it.
 */
export const DEADLINE_SLACK_MS = 1000;
