/**
 * The `<img>` oracle, with what Chromium really sends (docs/configuration.md, "The start-up
 * key"): a page of another site, open in the browser of someone who has the start-up key, loads
 * `<img src="…&where=NAME LIKE 'Ne%'&key=…">` for a condition that holds and one that does not.
 * Answered as usual, one would draw and the other fail, and the page would learn the data one
 * yes/no at a time. Chromium marks both `Sec-Fetch-Site: cross-site`, the server refuses both,
 * and the page sees two failures alike. The server counts the requests it answered, so the test
 * cannot pass by the browser not sending them (Private Network Access, a cache).
 *
 * shapeshot is at http://127.0.0.1:PORT; the page is served by a small server of the test's own
 * at http://localhost:OTHER: another site (localhost is not 127.0.0.1), both on loopback.
 */
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { startOtherSite, type OtherSite } from './other-site.ts';
import { launchChromium, openPage } from './chromium.ts';

/** Two conditions on the sample countries: one some names meet (Netherlands, Nepal, …), one none does. */
const CONDITIONS = { yes: "NAME LIKE 'Ne%'", no: "NAME LIKE 'Zq%'" } as const;

describe('the <img> oracle on the start-up key, in Chromium', () => {
  let server: TestServer;
  let pages: OtherSite;
  let browser: Browser;
  let page: Page;

  /** The picture of the countries a condition selects, under the start-up key; `v` names it for the count and keeps it out of any cache. */
  const imageUrl = (condition: keyof typeof CONDITIONS, run: string) =>
    server.url(
      `/REST/v1/shapefiles/images?file=countries&where=${encodeURIComponent(CONDITIONS[condition])}&format=png&size=64,64&key=${server.services.keys.startUpKey()}&v=${run}-${condition}`,
    );

  beforeAll(async () => {
    // As on a fresh `npm start`: the sample data, no keys configured.
    server = await startServer({ keys: [] });
    pages = await startOtherSite((url) => {
      const run = url.searchParams.get('run') ?? '';
      const images = (['yes', 'no'] as const).map((condition) => `<img id="${condition}" src="${imageUrl(condition, run).replaceAll('&', '&amp;')}">`);
      return `<title>elsewhere</title>${images.join('')}`;
    });
    browser = await launchChromium();
    ({ page } = await openPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await pages?.close();
  });

  it('would answer: fetched from this machine, outside a browser, the two conditions differ', async () => {
    const statuses = await Promise.all((['yes', 'no'] as const).map(async (condition) => (await fetch(imageUrl(condition, 'direct'))).status));
    expect(statuses).toEqual([200, 404]);
  });

  it('tells a page of another site nothing: both pictures fail alike, each refused by the server it reached', async () => {
    const answered = (['yes', 'no'] as const).map((condition) => server.nextAnswer(`v=elsewhere-${condition}`));
    await page.goto(`${pages.origin}/page.html?run=elsewhere`);
    await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
    const shown = await page.$$eval('img', (images) => images.map((image) => [image.id, (image as HTMLImageElement).naturalWidth]));
    expect(shown).toEqual([
      ['yes', 0],
      ['no', 0],
    ]);
    // Both reached the server, and both were refused before the condition was looked at.
    expect(await Promise.all(answered)).toEqual([403, 403]);
  });
});
