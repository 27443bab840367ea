import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';

/** CI keeps what lands here (git-ignored). */
const ARTEFACTS = fileURLToPath(new URL('./artefacts/', import.meta.url));

interface HotSpot {
  Fid: string;
  Shape: string;
  Coords: string;
  Attributes?: Record<string, unknown>;
}

/** Debian's chromium, on the PATH; without it the test fails (it never skips) and says what to install. */
function chromiumPath(): string {
  const directories = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const found = ['chromium', 'chromium-browser']
    .flatMap((name) => directories.map((directory) => join(directory, name)))
    .find((path) => existsSync(path));
  if (!found) throw new Error('Chromium is not installed: the playground test needs the apt package `chromium` (apt-get install chromium).');
  return found;
}

/**
 * A point inside a polygon: the middle of the first span a horizontal line through the
 * middle of its box spends inside it (even-odd). Its centre need not be inside.
 */
function pointInside(coords: string): { x: number; y: number } {
  const numbers = coords.split(',').map(Number);
  const points = Array.from({ length: numbers.length / 2 }, (_, i) => ({ x: numbers[2 * i], y: numbers[2 * i + 1] }));
  const ys = points.map((point) => point.y);
  const y = (Math.min(...ys) + Math.max(...ys)) / 2 + 0.5;
  const crossings = points
    .flatMap((a, i) => {
      const b = points[(i + 1) % points.length];
      return (a.y <= y) !== (b.y <= y) ? [a.x + ((y - a.y) / (b.y - a.y)) * (b.x - a.x)] : [];
    })
    .sort((a, b) => a - b);
  return { x: (crossings[0] + crossings[1]) / 2, y };
}

describe('the playground in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    // No keys configured, on loopback: the demo key the page starts with works, as on a fresh `npm start`.
    server = await startServer({ keys: [] });
    await mkdir(ARTEFACTS, { recursive: true });
    browser = await puppeteer.launch({
      executablePath: chromiumPath(),
      headless: true,
      // Chromium's sandbox refuses to start as root (containers, CI).
      args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
    });
    page = await browser.newPage();
    // Within the test's own time limit, so that a wait that fails says what it waited for.
    page.setDefaultTimeout(10_000);
    await page.setViewport({ width: 1400, height: 1000 });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page: ${error instanceof Error ? error.message : String(error)}`));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Loads the page afresh and waits for the catalog. */
  async function openPlayground() {
    const response = await page.goto(server.url('/'));
    await page.waitForSelector('#file option[value="countries"]');
    // The themes come from the server's own API description.
    await page.waitForSelector('#theme option[value="SteelGrid"]');
    return response;
  }

  /** Renders the form and waits until the image has loaded; a failed request fails with the server's words. */
  async function render() {
    await page.click('#render');
    await page.waitForFunction(() => document.querySelector('#render-status')?.textContent !== 'Rendering…');
    expect(await page.$eval('#render-status', (status) => status.textContent)).toMatch(/^\d+ image\(s\)/);
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('#images img');
      return image !== null && image.complete && image.naturalWidth > 0;
    });
  }

  /** Moves the pointer into a hot-spot polygon; its coordinates are the image's pixels. */
  async function pointInto(coords: string) {
    await page.$eval('#images img', (image) => image.scrollIntoView());
    const box = await page.$eval('#images img', (image) => {
      const { x, y } = image.getBoundingClientRect();
      return { x, y };
    });
    const inside = pointInside(coords);
    await page.mouse.move(box.x + inside.x, box.y + inside.y);
    return box;
  }

  it('renders a filtered selection, highlights the feature under the pointer, selects on click, without errors', async () => {
    const response = await openPlayground();
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toBe('text/html; charset=utf-8');
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");

    await page.select('#file', 'countries');
    await page.type('#where', "NAME IN ('Germany', 'Poland', 'Austria')");
    await render();
    expect(await page.$eval('#request-url', (code) => code.textContent)).toContain('/REST/v1/shapefiles/images?file=countries');

    // The envelope as the page shows it: JSON with the PNG bytes left out, hot spots carrying attributes.
    const envelope = JSON.parse(await page.$eval('#envelope', (pre) => pre.textContent ?? ''));
    expect(envelope.StatusCode).toBe(200);
    expect(envelope.Resource.ShapefileFeatureImages[0].FeatureImage).toMatch(/PNG bytes left out/);
    const germany: HotSpot[] = envelope.Resource.ShapefileFeatureImages[0].FeatureHotSpots.filter(
      (spot: HotSpot) => spot.Attributes?.NAME === 'Germany',
    );
    expect(germany.length).toBeGreaterThan(0);
    const largest = germany.reduce((a, b) => (b.Coords.length > a.Coords.length ? b : a));
    expect(largest.Shape).toBe('poly');

    const box = await pointInto(largest.Coords);
    await page.waitForSelector(`.overlay .hovered[data-fid="${largest.Fid}"]`);
    const hoverText = await page.$eval('#hover-info', (info) => info.textContent ?? '');
    expect(hoverText).toContain(largest.Fid);
    expect(hoverText).toContain('Germany');

    await page.mouse.down();
    await page.mouse.up();
    await page.waitForSelector(`.overlay .selected[data-fid="${largest.Fid}"]`);
    expect(await page.$eval('#selection', (list) => list.textContent)).toContain('Germany');

    // Off the feature the hover ends, and the selection stays highlighted.
    await page.mouse.move(box.x - 5, box.y - 5);
    await page.waitForFunction(() => document.querySelector('.overlay .hovered') === null);
    expect(await page.$$('.overlay .selected')).not.toHaveLength(0);

    await page.screenshot({ path: join(ARTEFACTS, 'playground.png'), fullPage: true });
    expect(problems).toEqual([]);
  }, 30_000);

  it('draws a map by ids with its XML envelope; a feature is reached and selected with the keyboard', async () => {
    await openPlayground();
    await page.select('#file', 'countries');
    await page.type('#fid', '156');
    await page.click('input[name="operation"][value="map"]');
    await page.click('input[name="format"][value="xml"]');
    await render();
    expect(await page.$eval('#request-url', (code) => code.textContent)).toContain('/REST/v1/shapefiles/map?file=countries&fid=156');
    const envelope = await page.$eval('#envelope', (pre) => pre.textContent ?? '');
    expect(envelope).toMatch(/^<Response /);
    expect(envelope).toContain('base64 characters left out');

    // Tab from the Render button lands on the image map's first area.
    await page.focus('#render');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('AREA');
    await page.waitForSelector('.overlay .hovered[data-fid="156"]');
    expect(await page.$eval('#hover-info', (info) => info.textContent)).toContain('Germany');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.overlay .selected[data-fid="156"]');
    expect(await page.$eval('#selection', (list) => list.textContent)).toContain('Germany');

    await page.screenshot({ path: join(ARTEFACTS, 'playground-map.png'), fullPage: true });
    expect(problems).toEqual([]);
  }, 30_000);

  it('renders /docs, the API reference, from this server alone, without errors', async () => {
    const outside: string[] = [];
    const watch = (request: { url(): string }) => {
      // data: URLs are inline images, not requests that leave the machine.
      if (!request.url().startsWith(server.url('/')) && !request.url().startsWith('data:')) outside.push(request.url());
    };
    page.on('request', watch);
    await page.goto(server.url('/docs'));
    // Swagger UI lists each operation as an "opblock"; the images operation is among them.
    await page.waitForFunction(() => document.querySelectorAll('.opblock').length > 10);
    expect(await page.$$eval('.opblock-summary-path', (paths) => paths.map((path) => path.textContent))).toContain('/REST/v1/shapefiles/images');
    page.off('request', watch);
    await page.screenshot({ path: join(ARTEFACTS, 'docs.png') });
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
  }, 30_000);
});
