/**
 * A newcomer's first minutes, in Chromium: shapeshot packed and installed from its tarball
 * into an empty folder (the built JavaScript, as npm ships it, not our sources), started
 * with `npx shapeshot <folder>` on a folder holding one shapefile of their own. /docs must
 * list the operations and / must show that shapefile under the pointer, without a click.
 * Slow (it packs and installs): run it on its own.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createShapefileWriter, type DbfField } from '../../scripts/lib/shapefile-writer.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { square, WGS84_PRJ } from '../support/fixtures.ts';
import { hasInstallScript, installedPackages, TELEMETRY_PACKAGES } from '../support/installation-rules.ts';
import { installPacked } from '../support/packed-package.ts';
import { spawnServer, type SpawnedServer } from '../support/spawned-server.ts';
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
} from './chromium.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** The folders whose files (TypeScript aside) the server hands to browsers as they are. */
const BROWSER_FOLDERS = ['src/playground', 'src/openapi/docs', 'src/openapi/swagger-ui'];

/** CI keeps what lands here (git-ignored). */
const ARTEFACTS = fileURLToPath(new URL('./artefacts/', import.meta.url));

/** More fields than the playground used to show (four), of each kind a .dbf holds. */
const FIELDS: DbfField[] = [
  { name: 'NAME', type: 'C', length: 30 },
  { name: 'OWNER', type: 'C', length: 30 },
  { name: 'LAND_USE', type: 'C', length: 20 },
  { name: 'AREA_HA', type: 'N', length: 12, decimals: 2 },
  { name: 'BUILT', type: 'N', length: 4 },
  { name: 'ZONE', type: 'C', length: 4 },
  { name: 'NOTES', type: 'C', length: 40 },
];

/** Three parcels side by side (lon/lat), so that each has its own hot spot to point at. */
function writeParcels(base: string): void {
  const writer = createShapefileWriter(base, { shapeType: ShapeType.Polygon, fields: FIELDS, prj: WGS84_PRJ });
  ['Oak Farm', 'Mill Field', 'Church Acre'].forEach((name, i) => {
    writer.write(
      { type: 'Polygon', coordinates: [square(5 + 0.02 * i, 52, 0.015)] },
      { NAME: name, OWNER: `Owner ${i}`, LAND_USE: 'pasture', AREA_HA: 12.5 + i, BUILT: 1900 + i, ZONE: `Z${i}`, NOTES: i === 1 ? null : `note ${i}` },
    );
  });
  writer.close();
}

describe('the installed package in a browser: npx shapeshot FOLDER, then /docs and the playground', () => {
  let project: string;
  let server: SpawnedServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    project = makeTempDir('installed-browser-');
    installPacked(project);
    mkdirSync(join(project, 'my-data'));
    writeParcels(join(project, 'my-data', 'parcels'));
    server = await spawnServer(['npx', '--no', 'shapeshot', './my-data', '--port', '0'], project);
    await mkdir(ARTEFACTS, { recursive: true });
    browser = await launchChromium();
    ({ page, problems } = await openPage(browser));
  }, 300_000);

  // Each test answers for its own page's errors.
  beforeEach(() => {
    problems.length = 0;
  });

  afterAll(async () => {
    await browser?.close();
    server?.kill();
    removeTempDirs();
  });

  it('ships every file a browser loads (pages, styles, scripts) byte for byte as written', () => {
    for (const folder of BROWSER_FOLDERS) {
      // Vendored libraries (MapLibre) sit in folders of their own.
      const files = readdirSync(join(REPO, folder), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && !entry.name.endsWith('.ts'))
        .map((entry) => relative(join(REPO, folder), join(entry.parentPath, entry.name)));
      expect(files.length).toBeGreaterThan(1);
      for (const name of files) {
        const installed = join(project, 'node_modules/shapeshot/dist', folder, name);
        expect(readFileSync(installed, 'utf8'), installed).toBe(readFileSync(join(REPO, folder, name), 'utf8'));
      }
    }
  });

  it('installed no telemetry package and no package with an install script (README.md, "What an installation contains")', () => {
    const installed = installedPackages(project);
    expect(installed.map(({ name }) => name)).toContain('shapeshot');
    expect(installed.filter(({ name }) => TELEMETRY_PACKAGES.includes(name))).toEqual([]);
    expect(installed.filter(hasInstallScript).map(({ name }) => name)).toEqual([]);
  });

  it('serves /docs with every operation listed, from this server alone, without a page error', async () => {
    const outside: string[] = [];
    page.on('request', (request) => {
      // data: URLs are inline images, not requests that leave the machine.
      if (!request.url().startsWith(server.origin) && !request.url().startsWith('data:')) outside.push(request.url());
    });
    await page.goto(`${server.origin}/docs`);
    // Swagger UI lists each operation as an "opblock" once it has read /openapi.json.
    await page.waitForFunction(() => document.querySelectorAll('.opblock').length > 10);
    const paths = await page.$$eval('.opblock-summary-path', (elements) => elements.map((element) => element.textContent));
    expect(paths).toEqual(expect.arrayContaining(['/REST/v1/shapefiles/images', '/REST/v1/shapefiles/map']));
    await page.screenshot({ path: join(ARTEFACTS, 'installed-docs.png') });
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);

  it('opens the playground on the folder\'s shapefile: an image with its image map without a click, every field under the pointer', async () => {
    // The address the server printed, with its start-up key.
    await page.goto((await server.line(/^Playground: /)).slice('Playground: '.length));
    await renderShown(page);
    expect(await renderButtonInView(page)).toBe(true);
    expect(await page.$eval('#file', (select) => (select as HTMLSelectElement).value)).toBe('parcels');
    expect(await page.$eval('#request-url', (code) => code.textContent)).toContain('/REST/v1/shapefiles/images?file=parcels&fid=0,1,2&');
    expect(await page.$$('#images map area')).toHaveLength(3);
    await page.screenshot({ path: join(ARTEFACTS, 'installed-playground.png') });

    const hotSpots = (await shownEnvelope(page)).Resource.ShapefileFeatureImages[0].FeatureHotSpots;
    for (const fid of ['0', '1']) {
      const spot = largestPolygon(hotSpots.filter((candidate) => candidate.Fid === fid));
      // Every field of the file came, in the .dbf's order, the one left empty too.
      expect(Object.keys(spot.Attributes ?? {})).toEqual(FIELDS.map(({ name }) => name));
      await pointInto(page, spot.Coords);
      await page.waitForSelector(`.overlay .hovered[data-fid="${fid}"]`);
      expect(await hoveredDetails(page)).toEqual(expectedDetails(spot));
    }
    expect(await page.$eval('#fields-note', (note) => note.textContent)).toBe('');
    expect(problems).toEqual([]);
  }, 60_000);
});
