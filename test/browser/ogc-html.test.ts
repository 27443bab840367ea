/**
 * /ogc's HTML pages in Chromium, as a newcomer meets them: typed without a key, a page that
 * says how to give one; then the landing page typed with the start-up key (the browser's own
 * Accept, no f), then only clicks: the collections, one collection's extent and queryables, its
 * features page by page, one feature with its picture. No page error, and nothing the page's
 * policy refused (it would say so on the console).
 */
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { launchChromium, openPage } from './chromium.ts';

describe('/ogc in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    // No keys configured, on loopback: the start-up key works, as on a fresh `npx shapeshot`.
    server = await startServer({ keys: [] });
    browser = await launchChromium();
    ({ page, problems } = await openPage(browser));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} for ${response.url()}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const heading = () => page.$eval('h1', (element) => element.textContent);
  const cells = (column: number) => page.$$eval(`tbody tr td:nth-child(${column})`, (elements) => elements.map((element) => element.textContent));

  /** Clicks the link with this text and waits for the page it opens. */
  async function follow(text: string) {
    const link = await page.waitForSelector(`::-p-xpath(//a[normalize-space(.)=${JSON.stringify(text)}])`);
    await Promise.all([page.waitForNavigation(), link!.click()]);
  }

  it('answers a page typed without a key with one that says how to give it, styled as the others', async () => {
    const response = await page.goto(server.url('/ogc'));
    expect(response?.status()).toBe(401);
    expect(response?.headers()['content-type']).toBe('text/html; charset=utf-8');
    expect(await heading()).toBe('An access key is needed');
    expect(await page.$eval('main', (element) => element.textContent)).toContain('?key=YOUR_KEY');
    expect(await page.$eval('main', (element) => getComputedStyle(element).display)).toBe('grid');
    // The 401 is this test's own doing; every other answer must succeed.
    problems.length = 0;
  });

  it('opens the landing page for the browser’s own Accept, styled by the playground’s stylesheet', async () => {
    const response = await page.goto(server.url(`/ogc?key=${server.services.keys.startUpKey()}`));
    expect(response?.headers()['content-type']).toBe('text/html; charset=utf-8');
    expect(await heading()).toBe('shapeshot: OGC API – Features');
    // The stylesheet applied: the playground's two-column grid.
    expect(await page.$eval('main', (element) => getComputedStyle(element).display)).toBe('grid');
  });

  it('lists the collections, and shows one with its extent and queryables', async () => {
    await follow('The collections');
    expect(await heading()).toBe('Collections');
    expect(await cells(1)).toEqual(expect.arrayContaining(['countries', 'borders']));
    await follow('countries');
    expect(await heading()).toBe('countries');
    const facts = await page.$$eval('dt', (elements) => elements.map((element) => `${element.textContent}: ${element.nextElementSibling?.textContent}`));
    expect(facts).toContain('Extent (WGS 84 lon/lat): -180.0000, -89.9990 to 180.0000, 83.5996');
    expect(await cells(1)).toEqual(['NAME', 'NAME_NL', 'ISO_N3', 'AREA_KM2', 'REGION', 'SUBREGION', 'LANDLOCKED']);
    const playground = await page.$eval('::-p-xpath(//a[normalize-space(.)="Draw it in the playground"])', (element) => (element as HTMLAnchorElement).href);
    expect(playground).toBe(server.url('/?file=countries'));
  });

  it('pages through the features and back', async () => {
    await follow('Browse its features');
    expect(await page.$eval('section p strong', (element) => element.textContent)).toBe('1–10');
    const firstPage = await cells(1);
    expect(firstPage).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    await follow('Next 10');
    expect(new URL(page.url()).searchParams.get('f')).toBe('html');
    expect(await cells(1)).toEqual(['10', '11', '12', '13', '14', '15', '16', '17', '18', '19']);
    await follow('Previous 10');
    expect(await cells(1)).toEqual(firstPage);
  });

  it('shows one feature’s attributes and its picture', async () => {
    await follow('3');
    expect(await heading()).toBe('countries: feature 3');
    const rows = await page.$$eval('tbody tr', (elements) => elements.map((element) => [element.querySelector('th')?.textContent, element.querySelector('td')?.textContent]));
    expect(rows.map(([field]) => field)).toEqual(['NAME', 'NAME_NL', 'ISO_N3', 'AREA_KM2', 'REGION', 'SUBREGION', 'LANDLOCKED']);
    const picture = await page.waitForSelector('img');
    await page.waitForFunction((image) => image !== null && image.complete, {}, picture);
    expect(await picture!.evaluate((image) => image.naturalWidth)).toBe(320);
    expect(problems).toEqual([]);
  });
});
