/**
 * The playground and /docs in Chromium, against the app running in this process: what a
 * user sees on opening (a picture of their data, every field under the pointer), and the
 * form driven as a user drives it.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShapefileWriter, type DbfField } from '../../scripts/lib/shapefile-writer.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { square, WGS84_PRJ } from '../support/fixtures.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import {
  expectedDetails,
  hoveredDetails,
  largestPolygon,
  launchChromium,
  openPage,
  pointInto,
  renderButtonInView,
  renderShown,
  shownEnvelope,
  type HotSpot,
} from './chromium.ts';

/** CI keeps what lands here (git-ignored). */
const ARTEFACTS = fileURLToPath(new URL('./artefacts/', import.meta.url));

describe('the playground in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    // No keys configured, on loopback: the start-up key, as on a fresh `npm start`.
    server = await startServer({ keys: [] });
    await mkdir(ARTEFACTS, { recursive: true });
    browser = await launchChromium();
    ({ page, problems } = await openPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Loads the page afresh and waits for the catalog, the themes and the picture it draws on opening. */
  async function openPlayground(path = '/') {
    // As the server prints its address: with the start-up key, which the page keeps.
    const address = new URL(server.url(path));
    address.searchParams.set('key', server.services.keys.startUpKey()!);
    const response = await page.goto(address.href);
    await page.waitForSelector('#file option[value="countries"]');
    // The themes come from the server's own API description.
    await page.waitForSelector('#theme option[value="SteelGrid"]');
    await renderShown(page);
    return response;
  }

  /** Renders the form and waits until the image has loaded; a failed request fails with the server's words. */
  async function render() {
    await page.click('#render');
    await renderShown(page);
  }

  it('opens with a picture of the sample countries and its image map, without a click; Render is in view; every field shows under the pointer', async () => {
    const response = await openPlayground();
    expect(response?.status()).toBe(200);
    expect(await renderButtonInView(page)).toBe(true);

    // The sample data's first look is its countries (as a choropleth: test/browser/playground-thematic.test.ts), the whole world but Antarctica.
    expect(await page.$eval('#file', (select) => (select as HTMLSelectElement).value)).toBe('countries');
    const url = new URL((await page.$eval('#request-url', (code) => code.textContent)) ?? '');
    expect(url.pathname).toBe('/REST/v1/shapefiles/images');
    expect([...url.searchParams.keys()].slice(0, 2)).toEqual(['file', 'where']);
    expect(url.searchParams.get('where')).toBe("REGION <> 'Antarctic'");
    expect(await page.$$('#images map area')).not.toHaveLength(0);

    await page.screenshot({ path: join(ARTEFACTS, 'playground-first-look.png') });

    const envelope = await shownEnvelope(page);
    const spot = largestPolygon(envelope.Resource.ShapefileFeatureImages[0].FeatureHotSpots);
    await pointInto(page, spot.Coords);
    await page.waitForSelector(`.overlay .hovered[data-fid="${spot.Fid}"]`);
    expect(Object.keys(spot.Attributes ?? {})).toEqual(await page.$eval('#fields-hint', (hint) => (hint.textContent ?? '').replace(/^Fields: |\.$/g, '').split(', ')));
    expect(await hoveredDetails(page)).toEqual(expectedDetails(spot));
    // Nothing was left out, so nothing says so.
    expect(await page.$eval('#fields-note', (note) => note.textContent)).toBe('');
    expect(problems).toEqual([]);
  }, 30_000);

  it('opens with the shapefile its address names (?file=, any case), and follows another file chosen', async () => {
    await openPlayground('/?file=BENELUX_RD');
    expect(await page.$eval('#file', (select) => (select as HTMLSelectElement).value)).toBe('benelux_rd');
    expect(await page.$eval('#request-url', (code) => code.textContent)).toMatch(/\/images\?file=benelux_rd&fid=0,1,2&/);

    await page.select('#file', 'borders');
    await renderShown(page);
    expect(await page.$eval('#request-url', (code) => code.textContent)).toMatch(/\/images\?file=borders&fid=/);
    expect(await page.evaluate(() => location.search)).toBe('?file=borders');

    await openPlayground('/?file=nowhere');
    expect(await page.$eval('#catalog-status', (status) => status.textContent)).toMatch(/^There is no shapefile 'nowhere' among the \d+ this key may see: showing \w+/);
    expect(problems).toEqual([]);
  }, 30_000);

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
    const envelope = await shownEnvelope(page);
    expect(envelope.StatusCode).toBe(200);
    expect(envelope.Resource.ShapefileFeatureImages[0].FeatureImage).toMatch(/PNG bytes left out/);
    const germany: HotSpot[] = envelope.Resource.ShapefileFeatureImages[0].FeatureHotSpots.filter(
      (spot: HotSpot) => spot.Attributes?.NAME === 'Germany',
    );
    expect(germany.length).toBeGreaterThan(0);
    const largest = largestPolygon(germany);

    const box = await pointInto(page, largest.Coords);
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

/**
 * A shapefile with more fields than the server takes in hotSpotFields (50): the page asks
 * for as many as it may, shows every one it got, and says that the rest were left out.
 */
describe('the playground on a shapefile wider than hotSpotFields allows', () => {
  const FIELDS: DbfField[] = Array.from({ length: 52 }, (_, i) => ({ name: `FIELD_${String(i + 1).padStart(2, '0')}`, type: 'C', length: 12 }));
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    const folder = makeTempDir('playground-wide-');
    const writer = createShapefileWriter(join(folder, 'wide_parcels'), { shapeType: ShapeType.Polygon, fields: FIELDS, prj: WGS84_PRJ });
    for (let feature = 0; feature < 3; feature++) {
      writer.write({ type: 'Polygon', coordinates: [square(5 + 2 * feature, 52, 1)] }, Object.fromEntries(FIELDS.map(({ name }, i) => [name, `v${feature}.${i + 1}`])));
    }
    writer.close();
    server = await startServer({ keys: [], dataDir: folder });
    browser = await launchChromium();
    ({ page, problems } = await openPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    removeTempDirs();
  });

  it('shows under the pointer all 50 fields the server sent, and says the other 2 were left out', async () => {
    await page.goto(server.url(`/?key=${server.services.keys.startUpKey()}`));
    await renderShown(page);
    const url = new URL((await page.$eval('#request-url', (code) => code.textContent)) ?? '');
    expect(url.searchParams.get('fid')).toBe('0,1,2');
    expect(url.searchParams.get('hotSpotFields')?.split(',')).toEqual(FIELDS.slice(0, 50).map(({ name }) => name));
    expect(await page.$eval('#fields-note', (note) => note.textContent)).toBe(
      'Under the pointer: the first 50 of the 52 fields, as the server takes at most 50 in hotSpotFields.',
    );

    const spot = largestPolygon((await shownEnvelope(page)).Resource.ShapefileFeatureImages[0].FeatureHotSpots);
    expect(Object.keys(spot.Attributes ?? {})).toHaveLength(50);
    await pointInto(page, spot.Coords);
    await page.waitForSelector(`.overlay .hovered[data-fid="${spot.Fid}"]`);
    expect(await hoveredDetails(page)).toEqual(expectedDetails(spot));
    expect(problems).toEqual([]);
  }, 30_000);
});
