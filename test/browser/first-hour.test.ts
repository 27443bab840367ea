/**
 * A newcomer's first hour in Chromium (docs/configuration.md, "The start-up key"): shapeshot
 * started as a process, as `npm start` starts it, with no keys configured; the playground and
 * /docs opened from the URLs it printed, which carry its start-up key. Each page keeps the key
 * (the key field holds it, Swagger UI is authorized with it) and takes it out of the address
 * bar; the server never writes it into a page. Opened without it, the playground says where
 * the key comes from.
 */
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverCommand } from '../../bench/server-process.ts';
import { spawnServer, type SpawnedServer } from '../support/spawned-server.ts';
import { launchChromium, openPage, renderShown } from './chromium.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

describe('the first hour: the printed URLs in a browser', () => {
  let server: SpawnedServer;
  let browser: Browser;
  /** The printed URLs, by their label. */
  let printed: Record<'Playground' | 'API docs', string>;
  let key: string;

  beforeAll(async () => {
    // The sample data, no configuration: as `npm start` in a clone.
    server = await spawnServer([...serverCommand('node'), '--port', '0'], REPO);
    const url = async (label: string) => (await server.line(new RegExp(`^${label}: `))).slice(`${label}: `.length);
    printed = { Playground: await url('Playground'), 'API docs': await url('API docs') };
    key = new URL(printed.Playground).searchParams.get('key')!;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    server?.kill();
  });

  /** A page in a tab of its own: each tab keeps its own key. */
  const newTab = () => openPage(browser);

  it('prints the playground and /docs with the start-up key, and serves both pages without it', async () => {
    expect(key).toMatch(/^[0-9a-f]{48}$/);
    expect(printed['API docs']).toBe(`${server.origin}/docs?key=${key}`);
    for (const [keyed, bare] of [
      [printed.Playground, `${server.origin}/`],
      [printed['API docs'], `${server.origin}/docs`],
    ]) {
      const [withKey, without] = await Promise.all([fetch(keyed).then((answer) => answer.text()), fetch(bare).then((answer) => answer.text())]);
      expect(withKey).toBe(without);
      expect(withKey).not.toContain(key);
    }
  });

  it('opens the playground from its printed URL: the key in its field, out of the address bar, a picture drawn', async () => {
    const { page, problems } = await newTab();
    await page.goto(printed.Playground);
    await renderShown(page);
    expect(await page.$eval('#key', (input) => (input as HTMLInputElement).value)).toBe(key);
    expect(page.url()).toBe(`${server.origin}/`);
    expect(await page.$eval('#key-status', (status) => status.textContent)).toBe('');
    // A reload (the address no longer holds the key) keeps it: the tab did.
    await page.reload();
    await renderShown(page);
    expect(await page.$eval('#key', (input) => (input as HTMLInputElement).value)).toBe(key);
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  it('opens /docs from its printed URL authorized: a "Try it out" call answers 200', async () => {
    const { page, problems } = await newTab();
    await page.goto(printed['API docs']);
    await page.waitForFunction(() => document.querySelectorAll('.opblock').length > 10);
    expect(page.url()).toBe(`${server.origin}/docs`);
    await tryItOut(page, '/REST/v1/usage');
    expect(await page.$eval('.live-responses-table .response .response-col_status', (cell) => cell.textContent?.trim())).toBe('200');
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  it('opens the playground without a key: an empty field and a sentence that says where the key comes from; a wrong key is told the same', async () => {
    const { page } = await newTab();
    await page.goto(`${server.origin}/`);
    expect(await page.$eval('#key', (input) => (input as HTMLInputElement).value)).toBe('');
    expect(await page.$eval('#key-status', (status) => status.textContent)).toMatch(
      /^No access key yet: the server printed its start-up key when it started, in the terminal where it runs .* or use one of the keys it is configured with\.$/,
    );
    expect(await page.$eval('#render-status', (status) => status.textContent)).toBe('Nothing drawn yet: no access key.');

    // A key typed wrong: the server's 401 brings the same sentence, next to the field.
    const refused = page.waitForResponse((response) => response.url().includes('/ogc/collections') && response.status() === 401);
    await page.type('#key', 'not-the-key');
    await page.$eval('#key', (input) => input.dispatchEvent(new Event('change', { bubbles: true })));
    await refused;
    await page.waitForFunction(() => document.querySelector('#key-status')?.textContent?.startsWith('This key was not accepted: the server printed its start-up key'));

    // The right one: the page draws, as if it had opened with it.
    await page.$eval('#key', (input, right) => {
      (input as HTMLInputElement).value = right;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    }, key);
    // renderShown waits for a render under way to end: first, that the page has begun one.
    await page.waitForFunction(() => /…$|^\d+ image\(s\)/.test(document.querySelector('#render-status')?.textContent ?? ''));
    await renderShown(page);
    expect(await page.$eval('#key-status', (status) => status.textContent)).toBe('');
    await page.close();
  }, 30_000);
});

/** Swagger UI's own steps on the operation at `path`: open it, "Try it out", "Execute", and wait for the answer it shows. */
async function tryItOut(page: Page, path: string): Promise<void> {
  const summary = await page.waitForSelector(`::-p-xpath(//*[contains(@class, "opblock-summary-path") and normalize-space(.)=${JSON.stringify(path)}])`);
  await summary!.click();
  const block = await page.waitForSelector('.opblock.is-open');
  await (await block!.waitForSelector('.try-out__btn'))!.click();
  await (await block!.waitForSelector('.execute'))!.click();
  await block!.waitForSelector('.live-responses-table .response .response-col_status');
}
