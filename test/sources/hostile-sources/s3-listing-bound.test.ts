/**
 * Issue 29: the S3 listing's bound counts pages as well as keys. A store that answers
 * ListObjectsV2 with pages of CommonPrefixes only, or with empty pages, each saying more
 * follow under a new continuation token, is read up to the bound and no further: the request
 * that waited for the listing gets a 503 naming the source and the bound, within its budget,
 * and the store was asked at most that many pages. Today the bound counts objects only, and
 * such a listing is read for ever. The bound is stated in test/support/at-size-expectations.ts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DEADLINE_SLACK_MS, LISTING_BOUND_WORDS, MAX_LISTING_PAGES, sourceConfig } from '../../support/at-size-expectations.ts';
import { startHostileSource, type ScriptedPage } from '../../support/hostile-source.ts';
import { namesSource, putSample } from '../../support/hostile-scenarios.ts';
import { describeAnswer, getFrom, withKey } from '../../support/shapeshot-process.ts';
import { startServer, type TestServer } from '../../support/server.ts';

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

const REQUEST_TIMEOUT_MS = 5000;

/** Endless pages, each with a new token: of 1,000 common prefixes (folders), or of nothing at all. */
const ENDLESS: { pages: string; page: (asked: number) => ScriptedPage }[] = [
  { pages: 'pages of common prefixes only', page: (asked) => ({ commonPrefixes: Array.from({ length: 1000 }, (_, i) => `folder-${asked}-${i}/`), truncated: true, nextToken: `token-${asked}` }) },
  { pages: 'empty pages', page: (asked) => ({ truncated: true, nextToken: `token-${asked}` }) },
];

describe('an S3 listing that never ends', () => {
  it.each(ENDLESS)('of $pages stops at the bound with a 503 naming the source and the bound, having asked at most that many pages', async ({ page }) => {
    const source = await startHostileSource('s3');
    try {
      putSample(source, 'countries', 'country_centres');
      let asked = 0;
      source.scriptListing(() => page(++asked));
      const server = await startServer({ ...sourceConfig(source), limits: { requestTimeoutMs: REQUEST_TIMEOUT_MS }, render: { workers: 1 } });
      servers.push(server);
      const answer = await getFrom(new URL(server.url('/')).origin, withKey('/REST/v1/shapefiles/images?file=countries&fid=0&format=json'), REQUEST_TIMEOUT_MS + DEADLINE_SLACK_MS);
      const pagesAsked = source.requests.filter((request) => request.kind === 'listing').length;
      expect.soft(namesSource(answer, source), `a 503 naming ${source.description}: ${describeAnswer(answer)}`).toBe(true);
      if (answer.status !== 'none') expect.soft(answer.text, 'the 503 names the bound in pages').toMatch(LISTING_BOUND_WORDS);
      expect.soft(pagesAsked, 'ListObjectsV2 pages asked').toBeLessThanOrEqual(MAX_LISTING_PAGES);
      expect.soft(source.inFlight('listing'), 'no listing still under way once the request was answered').toBe(0);
    } finally {
      await source.stop();
    }
  });
});
