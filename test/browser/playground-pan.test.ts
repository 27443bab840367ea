/**
 * The playground's panning map in Chromium (issue 32): MapLibre GL drawing the layer's vector
 * tiles over the basemap, served by a real shapeshot and driven as a user drives it (dragged,
 * wheeled, its + button clicked); the features found in the map's own pixels in the colours of
 * the style's classes, the feature under the pointer shown with its fields and class, the
 * picture of the view one click away, and not one console error on the way.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePng, type DecodedPng } from '../support/png.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { hoveredDetails, launchChromium, openPage, renderShown } from './chromium.ts';

/** CI keeps what lands here (git-ignored). */
const ARTEFACTS = fileURLToPath(new URL('./artefacts/', import.meta.url));

/** A class of the map's legend, as the page lists it beside the map. */
interface ShownClass {
  label: string;
  rgb: [number, number, number];
}

/** Screen pixels may differ from the style's colour by a rounding; the basemap's colours are further off than this. */
const TOLERANCE = 4;

const near = (image: DecodedPng, x: number, y: number, [r, g, b]: readonly number[]) => {
  const [pr, pg, pb] = image.pixel(x, y);
  return Math.abs(pr - r) <= TOLERANCE && Math.abs(pg - g) <= TOLERANCE && Math.abs(pb - b) <= TOLERANCE;
};

/** How many of the image's pixels are in each class's colour. */
function pixelsByClass(image: DecodedPng, classes: readonly ShownClass[]): Map<string, number> {
  const counts = new Map(classes.map((entry) => [entry.label, 0]));
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const found = classes.find((entry) => near(image, x, y, entry.rgb));
      if (found) counts.set(found.label, counts.get(found.label)! + 1);
    }
  }
  return counts;
}

/** A point whose every pixel 6 px around is the class's colour: inside one of its features, away from outlines. */
function pointInside(image: DecodedPng, rgb: readonly number[]): { x: number; y: number } | undefined {
  const reach = 6;
  for (let y = reach; y < image.height - reach; y += 2) {
    for (let x = reach; x < image.width - reach; x += 2) {
      let inside = true;
      for (let dy = -reach; dy <= reach && inside; dy += 2) {
        for (let dx = -reach; dx <= reach && inside; dx += 2) inside = near(image, x + dx, y + dy, rgb);
      }
      if (inside) return { x, y };
    }
  }
  return undefined;
}

/** The zoom and centre the page states once the map is idle ("Zoom 1.23 at 51.2000°N, 4.5000°E."). */
function viewOf(status: string): { zoom: number; lat: number; lng: number } {
  const match = /^Zoom (-?[\d.]+) at ([\d.]+)°([NS]), ([\d.]+)°([EW])\.$/.exec(status);
  if (!match) throw new Error(`The map's status is not a view: ${status}`);
  const [, zoom, lat, ns, lng, ew] = match;
  return { zoom: Number(zoom), lat: Number(lat) * (ns === 'S' ? -1 : 1), lng: Number(lng) * (ew === 'W' ? -1 : 1) };
}

describe("the playground's map", () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    // No keys configured, on loopback: the start-up key, as on a fresh `npm start`. A view asks
    // for its some 20 tiles at once, basemap's included; on a machine the other tests load, their
    // expected wait passes the production bound (render.maxWaitMs) and some would be refused
    // with 503, as admission should (test/http/refusal.test.ts): here each is to be drawn.
    server = await startServer({ keys: [], render: { maxWaitMs: 120_000 } });
    await mkdir(ARTEFACTS, { recursive: true });
    browser = await launchChromium();
    ({ page, problems } = await openPage(browser));
    // Tiles, styles and pictures may take longer than a page's steps on a loaded machine.
    page.setDefaultTimeout(40_000);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /**
   * The status the map states at its next idle (all tiles drawn, no movement) that differs
   * from `before`: the view after what the test just did.
   */
  async function nextIdle(before: string): Promise<string> {
    await page.waitForFunction(
      (earlier) => {
        const text = document.querySelector('#pan-status')?.textContent ?? '';
        // A status in progress ends with an ellipsis ("…; drawing…"); the idle map's does not.
        return text !== earlier && !text.endsWith('…') && (text.startsWith('Zoom') || text.startsWith('The map failed'));
      },
      {},
      before,
    );
    const status = (await page.$eval('#pan-status', (element) => element.textContent)) ?? '';
    expect(status).not.toMatch(/failed|could not/);
    return status;
  }

  /** The map as the user sees it: its element's pixels, the canvas WebGL drew and the controls over it. */
  async function mapPixels(): Promise<DecodedPng> {
    const map = await page.$('#pan-map');
    return decodePng(await map!.screenshot());
  }

  async function mapCorner(): Promise<{ x: number; y: number; width: number; height: number }> {
    return page.$eval('#pan-map', (map) => {
      const { x, y, width, height } = map.getBoundingClientRect();
      return { x, y, width, height };
    });
  }

  it('serves MapLibre GL JS itself, from the copy the repository keeps, cached for an hour', async () => {
    for (const [path, type] of [
      ['/playground/maplibre/maplibre-gl.mjs', 'text/javascript; charset=utf-8'],
      ['/playground/maplibre/maplibre-gl-worker.mjs', 'text/javascript; charset=utf-8'],
      ['/playground/maplibre/maplibre-gl.css', 'text/css; charset=utf-8'],
    ]) {
      const response = await fetch(server.url(path));
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe(type);
      expect(response.headers.get('cache-control'), path).toBe('public, max-age=3600');
      // The worker's policy is its own script's: it fetches the tiles from this origin.
      expect(response.headers.get('content-security-policy'), path).toContain("connect-src 'self'");
      expect((await response.text()).length, path).toBeGreaterThan(50_000);
    }
  });

  it("opens the layer in its style's colours, pans and zooms, tells the feature under the pointer and its class, and draws the picture of the view", async () => {
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const address = new URL(server.url('/'));
    address.searchParams.set('key', server.services.keys.startUpKey()!);
    await page.goto(address.href);
    await page.waitForSelector('#file option[value="countries"]');
    // The first look: the sample countries coloured by region (first-look.js).
    await renderShown(page);

    await page.click('input[name="operation"][value="tiles"]');
    await page.click('#render');
    const opened = await nextIdle('');
    // The request is the layer's style, its key left out of the URL shown; the envelope's place shows the style.
    const styleRequest = new URL((await page.$eval('#request-url', (code) => code.textContent)) ?? '');
    expect(styleRequest.pathname).toBe('/REST/v1/shapefiles/tiles/countries/style.json');
    expect(styleRequest.searchParams.get('styleBy')).toBe('REGION');
    expect(styleRequest.searchParams.has('key')).toBe(false);
    expect(JSON.parse(await page.$eval('#envelope', (pre) => pre.textContent ?? '')).version).toBe(8);
    await page.waitForSelector('#pan-legend-classes li');
    const classes: ShownClass[] = await page.$$eval('#pan-legend-classes li', (items) =>
      items.map((item) => {
        const hex = (item as HTMLElement).dataset.color ?? '';
        return { label: item.querySelector('.label')?.textContent ?? '', rgb: [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)) as [number, number, number] };
      }),
    );
    expect(classes.map((entry) => entry.label)).toEqual(expect.arrayContaining(['Africa', 'Europe', 'Asia']));

    // Every region but Antarctica (left out, as in the picture) has its colour on the world map.
    const world = pixelsByClass(await mapPixels(), classes);
    for (const region of ['Africa', 'Americas', 'Asia', 'Europe', 'Oceania']) expect(world.get(region), region).toBeGreaterThan(50);
    // The window alone: a whole-page shot resizes the window for a moment, and the map with it.
    await page.screenshot({ path: join(ARTEFACTS, 'playground-pan-opened.png') });

    // Dragged to the right, the map shows what lies west of where it was.
    const corner = await mapCorner();
    const middle = { x: corner.x + corner.width / 2, y: corner.y + corner.height / 2 };
    await page.mouse.move(middle.x, middle.y);
    await page.mouse.down();
    await page.mouse.move(middle.x + 150, middle.y + 30, { steps: 10 });
    await page.mouse.up();
    const panned = await nextIdle(opened);
    expect(viewOf(panned).lng).toBeLessThan(viewOf(opened).lng);

    // The wheel, then the + button, zoom in.
    await page.mouse.move(middle.x, middle.y);
    await page.mouse.wheel({ deltaY: -300 });
    const wheeled = await nextIdle(panned);
    expect(viewOf(wheeled).zoom).toBeGreaterThan(viewOf(panned).zoom);
    await page.click('.maplibregl-ctrl-zoom-in');
    const zoomed = await nextIdle(wheeled);
    expect(viewOf(zoomed).zoom).toBeGreaterThan(viewOf(wheeled).zoom + 0.5);

    // Closer, the features are still drawn in their classes' colours; the one with the most pixels is pointed at.
    const closer = await mapPixels();
    const counts = pixelsByClass(closer, classes);
    const [label, count] = [...counts].reduce((a, b) => (b[1] > a[1] ? b : a));
    expect(count).toBeGreaterThan(1000);
    const inside = pointInside(closer, classes.find((entry) => entry.label === label)!.rgb);
    expect(inside, `a point inside a feature of ${label}`).toBeDefined();
    await page.mouse.move(corner.x + inside!.x, corner.y + inside!.y);
    await page.waitForFunction(() => document.querySelector('#hover-info dl') !== null);
    expect(await page.$eval('#hover-info .feature-class', (line) => line.textContent)).toBe(`Class: ${label}`);
    const details = new Map(await hoveredDetails(page));
    // The tile's fields (the file's first 8: all 7 of the countries'), the class's own among them.
    expect([...details.keys()].sort()).toEqual(['AREA_KM2', 'Fid', 'ISO_N3', 'LANDLOCKED', 'NAME', 'NAME_NL', 'REGION', 'SUBREGION']);
    expect(details.get('REGION')).toBe(label);
    const fid = details.get('Fid')!;
    expect(fid).toMatch(/^\d+$/);

    // A click chooses it: the picture of the view draws it alone, at the map's zoom, one click away.
    await page.mouse.down();
    await page.mouse.up();
    await page.waitForFunction((chosen) => document.querySelector('#selection dd')?.textContent === chosen, {}, fid);
    const viewUrl = new URL((await page.$eval('#view-url', (code) => code.textContent)) ?? '');
    expect(viewUrl.pathname).toBe('/REST/v1/shapefiles/map');
    expect(viewUrl.searchParams.get('fid')).toBe(fid);
    expect(viewUrl.searchParams.get('zoom')).toBe(String(Math.round(viewOf(zoomed).zoom) + 1));
    expect(viewUrl.searchParams.get('styleBy')).toBe('REGION');
    const canvas = await page.$eval('#pan-map canvas', (drawn) => ({ width: drawn.clientWidth, height: drawn.clientHeight }));
    expect(viewUrl.searchParams.get('size')).toBe(`${canvas.height},${canvas.width}`);
    expect(viewUrl.searchParams.has('key')).toBe(false);

    await page.click('#show-view-picture');
    await page.waitForFunction(() => {
      const picture = document.querySelector<HTMLImageElement>('#view-picture img');
      return picture !== null && picture.complete && picture.naturalWidth > 0;
    });
    expect(await page.$eval('#view-picture img', (picture) => (picture as HTMLImageElement).naturalWidth)).toBe(canvas.width);

    // Back to images, the picture is drawn again and the panels speak of its hot spots.
    await page.click('input[name="operation"][value="images"]');
    await page.click('#render');
    await renderShown(page);
    expect(await page.$eval('#selection', (list) => list.childElementCount)).toBe(0);
    expect(await page.$eval('#pan-view', (view) => (view as HTMLElement).hidden)).toBe(true);

    await page.screenshot({ path: join(ARTEFACTS, 'playground-pan.png'), fullPage: true });
    // Offline: nothing from another origin (data: and blob: are the page's own images). The key
    // went in headers: no URL but the start-up one the page was opened with carries it.
    expect(requests.filter((url) => !url.startsWith(server.url('/')) && !/^(data|blob):/.test(url))).toEqual([]);
    expect(requests.filter((url) => url.includes('key=') && new URL(url).pathname !== '/')).toEqual([]);
    expect(problems).toEqual([]);
  }, 180_000);
});
