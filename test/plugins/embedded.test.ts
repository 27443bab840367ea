import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Basemap, BasemapProvider, Culture, MapType, MapView } from '../../src/sdk/plugin.ts';
import embedded from '../../plugins/embedded/index.ts';
import { rasterizeBasemap, testContext, viewCentredOn } from '../support/basemap.ts';
import type { RgbaPixel } from '../support/png.ts';

const provider: BasemapProvider = await embedded.create({}, testContext('embedded'));

const render = (view: MapView, type: MapType = 'Road', culture: Culture = 'English') =>
  provider.render({ view, type, culture, signal: new AbortController().signal });

const labelsOf = (basemap: Basemap) => (basemap.above?.labels ?? []).map((label) => label.text);
const distance = (a: RgbaPixel, b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const ROAD_LAND = [0xf3, 0xf0, 0xe9];
const ROAD_WATER = [0xaa, 0xd3, 0xdf];

describe('embedded basemap', () => {
  const benelux = viewCentredOn(5.3, 52.2, 6, 480, 360);

  it('labels countries in English or Dutch, in the bundled font', async () => {
    const english = await render(benelux, 'Road', 'English');
    const dutch = await render(benelux, 'Road', 'Dutch');
    expect(labelsOf(english)).toContain('Netherlands');
    expect(labelsOf(dutch)).toContain('Nederland');
    expect(labelsOf(dutch)).not.toContain('Netherlands');
    expect(english.fonts).toHaveLength(1);
    expect(isAbsolute(english.fonts![0]) && existsSync(english.fonts![0])).toBe(true);
    expect(english.attribution).toBe('Natural Earth');
    const englishImage = rasterizeBasemap(english, benelux);
    const dutchImage = rasterizeBasemap(dutch, benelux);
    expect(Buffer.compare(Buffer.from(englishImage.data), Buffer.from(dutchImage.data))).not.toBe(0);
  });

  it('draws Road and Aerial differently; AerialWithLabels has labels and Aerial none', async () => {
    const europe = viewCentredOn(10, 50, 3, 480, 360);
    const road = await render(europe, 'Road');
    const aerial = await render(europe, 'Aerial');
    const labelled = await render(europe, 'AerialWithLabels');
    expect(labelsOf(aerial)).toEqual([]);
    expect(labelsOf(labelled)).toEqual(expect.arrayContaining(['Germany', 'France', 'Spain']));
    // Deep ocean in the Atlantic: blue on both, but darker on Aerial.
    const roadImage = rasterizeBasemap(road, europe);
    const aerialImage = rasterizeBasemap(aerial, europe);
    const atlantic = pixelOf(europe, -25, 45);
    expect(distance(roadImage.pixel(...atlantic), ROAD_WATER)).toBeLessThan(8);
    const deep = aerialImage.pixel(...atlantic);
    expect(deep[2]).toBeGreaterThan(deep[0] + 40);
    expect(deep[0] + deep[1] + deep[2]).toBeLessThan(300);
  });

  it('puts land and water where they are', async () => {
    const image = rasterizeBasemap(await render(benelux), benelux);
    for (const [lon, lat] of [[5.9, 52.1], [4.6, 50.6], [9.5, 51]]) {
      expect(distance(image.pixel(...pixelOf(benelux, lon, lat)), ROAD_LAND), `land at ${lon},${lat}`).toBeLessThan(8);
    }
    for (const [lon, lat] of [[3.5, 53.5], [1.5, 54.5]]) {
      expect(distance(image.pixel(...pixelOf(benelux, lon, lat)), ROAD_WATER), `sea at ${lon},${lat}`).toBeLessThan(8);
    }
  });

  it('draws the whole world across the antimeridian at zoom 1', async () => {
    const pacific = viewCentredOn(180, 0, 1, 640, 400); // wider than the world: it shows twice
    const image = rasterizeBasemap(await render(pacific), pacific);
    const sahara = pixelOf(pacific, 2, 27); // near the left edge: shown again one world (512 px) to the right
    expect(sahara[0]).toBeLessThan(128);
    expect(distance(image.pixel(...sahara), ROAD_LAND)).toBeLessThan(8);
    expect(distance(image.pixel(sahara[0] + 512, sahara[1]), ROAD_LAND)).toBeLessThan(8);
    expect(distance(image.pixel(...pixelOf(pacific, -152, 64)), ROAD_LAND)).toBeLessThan(8); // Alaska
    expect(distance(image.pixel(...pixelOf(pacific, -150, 0)), ROAD_WATER)).toBeLessThan(8);
  });

  it('renders every zoom from 1 to 22 in every type', async () => {
    for (let zoom = 1; zoom <= 22; zoom++) {
      const view = viewCentredOn(4.9, 52.37, zoom, 200, 150);
      for (const type of ['Road', 'Aerial', 'AerialWithLabels'] as const) {
        const basemap = await render(view, type);
        expect(basemap.below.svg!.length).toBeLessThan(200_000);
        const image = rasterizeBasemap(basemap, view);
        expect(image.pixel(100, 75)[3]).toBe(255);
      }
    }
  });

  it('refuses an unknown option', () => {
    expect(() => embedded.create({ colour: 'red' }, testContext('embedded'))).toThrow(/'colour'/);
  });
});

/** Image pixel of a lon/lat in `view` (its leftmost copy when the view shows the world more than once). */
function pixelOf(view: MapView, lon: number, lat: number): [number, number] {
  const world = 256 * 2 ** view.zoom;
  const x = ((((((lon + 180) / 360) * world - view.left) % world) + world) % world);
  const y = ((1 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / Math.PI) / 2) * world - view.top;
  return [Math.round(x), Math.round(y)];
}
