/**
 * The playground's thematic maps in Chromium (issue 21): a fresh start opens with the sample
 * countries as a choropleth with labels and a legend; the picture has more than one fill
 * colour, each the colour of its feature's class; the legend beside it lists the classes;
 * pointing at a feature shows its class; the pickers show each field's type, the method by
 * default for it and the palette on the field's classes.
 */
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePng, hexColour, type DecodedPng } from '../support/png.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { largestPolygon, launchChromium, openPage, pointInto, renderShown, type HotSpot } from './chromium.ts';

interface LegendClass {
  Label: string;
  Color: string;
  Count: number;
}

interface StyledEnvelope {
  StatusCode: number;
  Resource: {
    ShapefileFeatureImages: { FeatureHotSpots: HotSpot[] }[];
    Legend?: { Field: string | null; Method: string; Classes: LegendClass[] };
  };
}

/** Points in a polygon's interior, spread over it: a label may cover some, not all. */
function pointsInside(coords: string): { x: number; y: number }[] {
  const numbers = coords.split(',').map(Number);
  const points = Array.from({ length: numbers.length / 2 }, (_, i) => ({ x: numbers[2 * i], y: numbers[2 * i + 1] }));
  const ys = points.map((point) => point.y);
  const [top, bottom] = [Math.min(...ys), Math.max(...ys)];
  return [0.3, 0.5, 0.7].flatMap((share) => {
    const y = Math.round(top + (bottom - top) * share) + 0.5;
    const crossings = points
      .flatMap((a, i) => {
        const b = points[(i + 1) % points.length];
        return a.y <= y !== b.y <= y ? [a.x + ((y - a.y) / (b.y - a.y)) * (b.x - a.x)] : [];
      })
      .sort((a, b) => a - b);
    if (crossings.length < 2) return [];
    const [left, right] = [crossings[0], crossings[1]];
    // Away from the outline (and its anti-aliasing) by a few pixels.
    if (right - left < 8) return [];
    return [0.25, 0.5, 0.75].map((at) => ({ x: Math.round(left + (right - left) * at), y: Math.floor(y) }));
  });
}

describe('the playground draws a thematic map', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    // As on a fresh `npm start`: the sample data, no keys, the start-up key.
    server = await startServer({ keys: [] });
    browser = await launchChromium();
    ({ page, problems } = await openPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openFresh(): Promise<StyledEnvelope> {
    // The playground URL the server prints carries its start-up key.
    const response = await page.goto(server.url(`/?key=${server.services.keys.startUpKey()}`));
    expect(response?.status()).toBe(200);
    await page.waitForSelector('#file option[value="countries"]');
    await renderShown(page);
    return JSON.parse(await page.$eval('#envelope', (pre) => pre.textContent ?? ''));
  }

  async function requestUrl(): Promise<URL> {
    return new URL((await page.$eval('#request-url', (code) => code.textContent)) ?? '');
  }

  /** The picture the page shows, as the server draws it for the same request in PNG. */
  async function picture(url: URL): Promise<DecodedPng> {
    const png = new URL(url);
    png.searchParams.set('format', 'png');
    // The page sends its key in a header: the start-up key of a fresh `npm start`.
    const response = await fetch(png, { headers: { 'X-API-Key': server.services.keys.startUpKey()! } });
    expect(response.status, await response.clone().text()).toBe(200);
    return decodePng(new Uint8Array(await response.arrayBuffer()));
  }

  it('opens with the sample countries coloured by region, labelled by name, with a legend', async () => {
    await openFresh();
    const url = await requestUrl();
    expect(url.searchParams.get('file')).toBe('countries');
    expect(url.searchParams.get('styleBy')).toBe('REGION');
    expect(url.searchParams.get('labelField')).toBe('NAME');
    expect(url.searchParams.get('legend')).toBe('1');
    expect(await page.$eval('#style-by', (select) => (select as HTMLSelectElement).value)).toBe('REGION');
    expect(await page.$eval('#labels-switch', (input) => (input as HTMLInputElement).checked)).toBe(true);
    expect(problems).toEqual([]);
  }, 30_000);

  it('the picture has more than one fill colour, each feature in its class colour', async () => {
    const envelope = await openFresh();
    expect(envelope.StatusCode).toBe(200);
    const legend = envelope.Resource.Legend;
    expect(legend, 'the envelope carries a Legend').toBeDefined();
    const image = await picture(await requestUrl());
    const hotSpots = envelope.Resource.ShapefileFeatureImages[0].FeatureHotSpots;

    // For each class, its largest polygon: some point inside it has exactly the class's colour.
    const classesSeen = new Set<number>();
    for (const [index, entry] of legend!.Classes.entries()) {
      const ofClass = hotSpots.filter((spot) => spot.Class === index && spot.Shape === 'poly');
      if (ofClass.length === 0) continue;
      const spot = largestPolygon(ofClass);
      const colours = pointsInside(spot.Coords).map(({ x, y }) => hexColour(image.pixel(x, y)));
      if (colours.includes(entry.Color.toLowerCase())) classesSeen.add(index);
    }
    expect(classesSeen.size).toBeGreaterThanOrEqual(2);
    expect(new Set([...classesSeen].map((index) => legend!.Classes[index].Color)).size).toBe(classesSeen.size);
  }, 30_000);

  it('lists the classes beside the picture: colour, label and count, as the envelope has them', async () => {
    const envelope = await openFresh();
    const classes = envelope.Resource.Legend!.Classes;
    expect(classes.length).toBeGreaterThanOrEqual(2);
    expect(classes.map((entry) => entry.Label)).toEqual(expect.arrayContaining(['Africa', 'Americas', 'Asia', 'Europe', 'Oceania']));
    await page.waitForSelector('#legend-panel:not([hidden])');
    const shown = await page.$$eval('#legend-classes li', (items) =>
      items.map((item) => ({
        color: item.querySelector('rect')?.getAttribute('fill'),
        label: item.querySelector('.label')?.textContent,
        count: item.querySelector('.count')?.textContent,
      })),
    );
    expect(shown).toEqual(classes.map((entry) => ({ color: entry.Color, label: entry.Label, count: String(entry.Count) })));
    // The legend sits beside the picture, not under it, in a 1400-pixel window.
    const [picture, panel] = await Promise.all(['#images img', '#legend-panel'].map((selector) => page.$eval(selector, (found) => found.getBoundingClientRect().toJSON())));
    expect(panel.left).toBeGreaterThanOrEqual(picture.right);
    expect(panel.top).toBeLessThan(picture.bottom);
    expect(problems).toEqual([]);
  }, 30_000);

  it('shows the class of the feature under the pointer, with its fields', async () => {
    const envelope = await openFresh();
    const classes = envelope.Resource.Legend!.Classes;
    const spot = largestPolygon(envelope.Resource.ShapefileFeatureImages[0].FeatureHotSpots);
    expect(spot.Class).toBeTypeOf('number');
    await pointInto(page, spot.Coords);
    await page.waitForSelector(`.overlay .hovered[data-fid="${spot.Fid}"]`);
    expect(await page.$eval('#hover-info .feature-class', (line) => line.textContent)).toBe(`Class: ${classes[spot.Class!].Label}`);
    expect(await page.$eval('#hover-info .feature-class rect', (rect) => rect.getAttribute('fill'))).toBe(classes[spot.Class!].Color);
    expect(await page.$eval('#hover-info dl', (list) => list.textContent)).toContain(String(spot.Attributes?.NAME));
    expect(spot.Attributes?.REGION).toBe(classes[spot.Class!].Label);
    expect(problems).toEqual([]);
  }, 30_000);

  it('offers each field with its type, the method by default for it, and previews the palette on its classes', async () => {
    await openFresh();
    const options = await page.$$eval('#style-by option', (found) => found.map((option) => option.textContent));
    expect(options).toEqual(expect.arrayContaining(['AREA_KM2 (number)', 'REGION (text)', 'LANDLOCKED (logical)']));
    expect(await page.$eval('#classify option', (option) => option.textContent)).toBe('Default: categories');

    await page.select('#style-by', 'AREA_KM2');
    expect(await page.$eval('#classify option', (option) => option.textContent)).toBe('Default: quantile');
    expect(await page.$eval('#classes', (input) => (input as HTMLInputElement).disabled)).toBe(false);
    // The palettes come from the server's API description.
    await page.waitForSelector('#palette option[value="Blues"]');
    await page.select('#palette', 'Blues');
    await page.$eval('#classes', (input) => {
      (input as HTMLInputElement).value = '4';
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    // The preview of this choice, not of an earlier one still arriving.
    await page.waitForFunction(() => {
      const legend = document.querySelector<HTMLElement>('#palette-preview')?.dataset.legend ?? '';
      return legend.includes('styleBy=AREA_KM2') && legend.includes('palette=Blues') && legend.includes('classes=4');
    });
    const preview = await page.$$eval('#palette-preview rect', (rects) => rects.map((rect) => rect.getAttribute('fill')));
    expect(preview.length).toBeGreaterThanOrEqual(4);

    await page.click('#render');
    await renderShown(page);
    const url = await requestUrl();
    expect(url.searchParams.get('styleBy')).toBe('AREA_KM2');
    expect(url.searchParams.get('palette')).toBe('Blues');
    expect(url.searchParams.get('classes')).toBe('4');
    const envelope: StyledEnvelope = JSON.parse(await page.$eval('#envelope', (pre) => pre.textContent ?? ''));
    expect(envelope.Resource.Legend?.Method).toBe('quantile');
    // The preview is the picture's own classes' colours (four quantiles, and the countries without an area).
    expect(envelope.Resource.Legend?.Classes.map((entry) => entry.Color)).toEqual(preview);
    expect(problems).toEqual([]);
  }, 30_000);
});
