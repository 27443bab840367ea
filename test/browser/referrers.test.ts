/**
 * A key's referrers rule with what Chromium really sends (docs/configuration.md, "Allowed
 * sites"): pages on an allowed origin and on a refused one, each with `<img src>` of the same
 * picture under the key. Chromium's default Referrer-Policy (strict-origin-when-cross-origin)
 * sends the picture's server, another origin, only the page's origin: the rule must match it,
 * and a pattern with a path cannot. The pages are served by a small server of the test's own,
 * reached as http://localhost:PORT (allowed) and http://127.0.0.1:PORT (refused): two origins.
 */
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { startOtherSite, type OtherSite } from './other-site.ts';
import { launchChromium, openPage } from './chromium.ts';

const SITE_KEY = 'site-key-for-chromium-0123';
const PATH_KEY = 'path-key-for-chromium-0123';

/** The images of a page: which key, and how the page asks for them. */
const IMAGES = [
  { id: 'plain', key: SITE_KEY, attributes: '' },
  { id: 'cors', key: SITE_KEY, attributes: 'crossorigin="anonymous"' },
  { id: 'hidden', key: SITE_KEY, attributes: 'referrerpolicy="no-referrer"' },
  { id: 'path', key: PATH_KEY, attributes: '' },
] as const;

type ImageId = (typeof IMAGES)[number]['id'];

describe('referrers in Chromium', () => {
  let server: TestServer;
  let pages: OtherSite;
  let browser: Browser;
  let page: Page;

  /** Each page's images carry the page's name in a parameter the operation ignores: no image comes from the browser's cache. */
  const imageUrl = (key: string, pageName: string, id: string) =>
    server.url(`/REST/v1/shapefiles/images?file=countries&fid=0&format=png&size=64,64&key=${key}&v=${pageName}-${id}`);

  beforeAll(async () => {
    pages = await startOtherSite((url) => {
      const pageName = url.searchParams.get('name') ?? '';
      const images = IMAGES.map(({ id, key, attributes }) => `<img id="${id}" ${attributes} src="${imageUrl(key, pageName, id)}">`);
      return `<title>${pageName}</title>${images.join('')}`;
    });
    server = await startServer({
      keys: [
        { key: SITE_KEY, referrers: [`http://localhost:${pages.port}/*`, 'https://*.example.org/*'] },
        // The page's own path: Chromium sends another origin none of it.
        { key: PATH_KEY, referrers: [`http://localhost:${pages.port}/maps/*`] },
      ],
    });
    browser = await launchChromium();
    ({ page } = await openPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await pages?.close();
  });

  /**
   * Opens the page and waits until every image has loaded or failed. Returns, per image,
   * whether the browser shows it and the status the server answered it with.
   */
  async function open(origin: string, pageName: string): Promise<Record<ImageId, { shown: boolean; status: number }>> {
    const answered = IMAGES.map(({ id }) => server.nextAnswer(`v=${pageName}-${id}`));
    await page.goto(`${origin}/maps/page.html?name=${pageName}`);
    await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
    const shown = await page.$$eval('img', (images) => images.map((image) => (image as HTMLImageElement).naturalWidth > 0));
    const statuses = await Promise.all(answered);
    return Object.fromEntries(IMAGES.map(({ id }, i) => [id, { shown: shown[i], status: statuses[i] }])) as Record<ImageId, { shown: boolean; status: number }>;
  }

  it('shows the picture on a page of an allowed origin, by Referer (origin only) and by Origin', async () => {
    const seen = await open(`http://localhost:${pages.port}`, 'allowed');
    expect(seen.plain).toEqual({ shown: true, status: 200 });
    expect(seen.cors).toEqual({ shown: true, status: 200 });
  });

  it('refuses the picture on a page of another origin: the server answers 403 and the browser shows nothing', async () => {
    const seen = await open(`http://127.0.0.1:${pages.port}`, 'refused');
    expect(seen.plain).toEqual({ shown: false, status: 403 });
    expect(seen.cors).toEqual({ shown: false, status: 403 });
  });

  it('refuses an allowed page that hides its Referer (allowNoReferrer unset), and a pattern with a path the browser does not send', async () => {
    const seen = await open(`http://localhost:${pages.port}`, 'hiding');
    expect(seen.hidden).toEqual({ shown: false, status: 403 });
    // The page is /maps/page.html, but Chromium tells another origin only http://localhost:PORT/.
    expect(seen.path).toEqual({ shown: false, status: 403 });
  });
});
