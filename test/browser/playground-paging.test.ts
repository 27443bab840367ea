/**
 * The playground's picker over a catalog of more than one page of /ogc/collections: it follows
 * the `next` links and lists every shapefile (30, with ogc.maxLimit at 10), opens one from a
 * later page by its address (?file=) without waiting for that page, and stops listing at 3,000 (a <select> of more is no use,
 * and each page costs the server a description of every file in it), saying so and how to
 * open any other; a file past that is still opened by its address.
 */
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numberedNames, writeManyShapefiles } from '../ogc/many-shapefiles.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { launchChromium, openPage, renderShown } from './chromium.ts';

describe('the playground over a catalog of many pages', () => {
  let browser: Browser;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    browser = await launchChromium();
    ({ page, problems } = await openPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    removeTempDirs();
  });

  const status = () => page.$eval('#catalog-status', (element) => element.textContent ?? '');
  const options = () => page.$$eval('#file option', (elements) => elements.map((option) => (option as HTMLOptionElement).value));
  const chosen = () => page.$eval('#file', (select) => (select as HTMLSelectElement).value);

  /** Opens the page at `path` and waits for its first picture and for the catalog's status to stop saying it lists more. */
  async function openPlayground(server: TestServer, path = '/') {
    // As the server prints its address: with the start-up key, which the page keeps.
    const address = new URL(server.url(path));
    address.searchParams.set('key', server.services.keys.startUpKey()!);
    await page.goto(address.href);
    await renderShown(page);
    await page.waitForFunction(() => {
      const text = document.querySelector('#catalog-status')?.textContent ?? '…';
      return !text.endsWith('…');
    });
  }

  describe('of 30 shapefiles, ten to a page', () => {
    const names = numberedNames(30);
    let server: TestServer;
    beforeAll(async () => {
      // No keys, on loopback: the start-up key.
      server = await startServer({ keys: [], dataDir: writeManyShapefiles(names), ogc: { maxLimit: 10 } });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('lists every one of them, in order, following the next links', async () => {
      const pagesAsked: string[] = [];
      const watch = (request: { url(): string }) => {
        if (request.url().includes('/ogc/collections') && !request.url().includes('/ogc/collections/')) pagesAsked.push(request.url());
      };
      page.on('request', watch);
      try {
        await openPlayground(server);
      } finally {
        page.off('request', watch);
      }
      expect(await options()).toEqual(names);
      expect(await status()).toBe('30 shapefiles this key may see.');
      expect(await chosen()).toBe(names[0]);
      expect(pagesAsked).toEqual([server.url('/ogc/collections'), server.url('/ogc/collections?offset=10&limit=10'), server.url('/ogc/collections?offset=20&limit=10')]);
      expect(problems).toEqual([]);
    }, 30_000);

    it('opens a shapefile of a later page named in its address, asked for alone, and lists it in its place', async () => {
      await openPlayground(server, '/?file=LAYER_27');
      expect(await chosen()).toBe('layer_27');
      expect(await page.$eval('#request-url', (code) => code.textContent)).toMatch(/\/images\?file=layer_27&fid=0&/);
      expect(await options()).toEqual(names);
      expect(await status()).toBe('30 shapefiles this key may see.');
      expect(problems).toEqual([]);
    }, 30_000);
  });

  describe('of more shapefiles than it lists', () => {
    const names = numberedNames(3010, 'many_');
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer({ keys: [], dataDir: writeManyShapefiles(names) });
    }, 60_000);
    afterAll(async () => {
      await server?.close();
    });

    it('lists the first 3,000 and says how to open the others; one past them named in the address is opened all the same', async () => {
      // One opening shows both (each page of 1,000 costs the server as many descriptions).
      await openPlayground(server, '/?file=many_3005');
      expect(await chosen()).toBe('many_3005');
      expect(await page.$eval('#request-url', (code) => code.textContent)).toMatch(/\/images\?file=many_3005&fid=0&/);
      expect(await options()).toEqual([...names.slice(0, 3000), 'many_3005']);
      expect(await status()).toBe('3,001 of the 3,010 shapefiles this key may see are listed here; to draw another, name it in the address: ?file=NAME.');
      expect(problems).toEqual([]);
    }, 90_000);
  });
});
