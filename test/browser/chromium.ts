/**
 * What the browser tests share: Chromium started as a user's browser would be (a 1400×1000
 * window), the page's errors collected, and the playground's steps they all take (its first
 * look awaited, a hot spot pointed at, what the page shows of it read back).
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { expect } from 'vitest';

export interface HotSpot {
  FeatureId: number;
  Fid: string;
  Shape: string;
  Coords: string;
  Attributes?: Record<string, unknown>;
  /** A styled image's class of the feature: an index into the envelope's Legend.Classes. */
  Class?: number;
}

/** The window the playground must fit: its Render button in view without scrolling. */
export const WINDOW = { width: 1400, height: 1000 };

/** Debian's chromium, on the PATH; without it the test fails (it never skips) and says what to install. */
function chromiumPath(): string {
  const directories = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const found = ['chromium', 'chromium-browser']
    .flatMap((name) => directories.map((directory) => join(directory, name)))
    .find((path) => existsSync(path));
  if (!found) throw new Error('Chromium is not installed: the browser tests need the apt package `chromium` (apt-get install chromium).');
  return found;
}

export function launchChromium(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    // Chromium's sandbox refuses to start as root (containers, CI).
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
}

/** A page in a 1400×1000 window, and the list its console errors and uncaught errors go to. */
export async function openPage(browser: Browser): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  // Within the test's own time limit, so that a wait that fails says what it waited for.
  page.setDefaultTimeout(10_000);
  await page.setViewport(WINDOW);
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page: ${error instanceof Error ? error.message : String(error)}`));
  return { page, problems };
}

/**
 * Waits until the render under way is over and its image has loaded; a failed request
 * fails the test with the server's words (the status line).
 */
export async function renderShown(page: Page): Promise<void> {
  // A status in progress ends with an ellipsis ("Rendering…"); the outcome's does not.
  await page.waitForFunction(() => !(document.querySelector('#render-status')?.textContent ?? '…').endsWith('…'));
  expect(await page.$eval('#render-status', (status) => status.textContent)).toMatch(/^\d+ image\(s\)/);
  await page.waitForFunction(() => {
    const image = document.querySelector<HTMLImageElement>('#images img');
    return image !== null && image.complete && image.naturalWidth > 0;
  });
}

/** The JSON envelope as the page shows it (PNG bytes left out). */
export async function shownEnvelope(page: Page): Promise<{ StatusCode: number; Resource: { ShapefileFeatureImages: { FeatureImage: string; FeatureHotSpots: HotSpot[] }[] } }> {
  return JSON.parse(await page.$eval('#envelope', (pre) => pre.textContent ?? ''));
}

/**
 * A point inside a polygon: the middle of the first span a horizontal line through the
 * middle of its box spends inside it (even-odd). Its centre need not be inside.
 */
export function pointInside(coords: string): { x: number; y: number } {
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

/** Moves the pointer into a hot-spot polygon of the first image; its coordinates are the image's pixels. Returns the image's corner. */
export async function pointInto(page: Page, coords: string): Promise<{ x: number; y: number }> {
  await page.$eval('#images img', (image) => image.scrollIntoView());
  const box = await page.$eval('#images img', (image) => {
    const { x, y } = image.getBoundingClientRect();
    return { x, y };
  });
  const inside = pointInside(coords);
  await page.mouse.move(box.x + inside.x, box.y + inside.y);
  return box;
}

/** The hot spot's largest polygon: the easiest to point into. */
export function largestPolygon(hotSpots: readonly HotSpot[]): HotSpot {
  const polygons = hotSpots.filter((spot) => spot.Shape === 'poly');
  expect(polygons.length).toBeGreaterThan(0);
  return polygons.reduce((a, b) => (b.Coords.length > a.Coords.length ? b : a));
}

/** What "Under the pointer" lists, term by term, in its order. */
export function hoveredDetails(page: Page): Promise<[string, string][]> {
  return page.$eval('#hover-info', (info) =>
    Array.from(info.querySelectorAll('dt')).map((term): [string, string] => [term.textContent ?? '', term.nextElementSibling?.textContent ?? '']),
  );
}

/** What the page should list for a hot spot: its ids, then every attribute the server sent, as the page writes values. */
export function expectedDetails(hotSpot: HotSpot): [string, string][] {
  return [
    ['Fid', hotSpot.Fid],
    ['FeatureId', String(hotSpot.FeatureId)],
    ...Object.entries(hotSpot.Attributes ?? {}).map(([name, value]): [string, string] => [name, value === null ? '(null)' : String(value)]),
  ];
}

/** Whether the Render button is in the window as the page opens, not hidden under anything. */
export function renderButtonInView(page: Page): Promise<boolean> {
  return page.$eval('#render', (button) => {
    const { left, top, right, bottom } = button.getBoundingClientRect();
    const inWindow = scrollY === 0 && top >= 0 && left >= 0 && bottom <= innerHeight && right <= innerWidth;
    return inWindow && button.contains(document.elementFromPoint((left + right) / 2, (top + bottom) / 2));
  });
}
