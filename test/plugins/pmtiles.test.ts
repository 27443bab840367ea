import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PNG } from 'pngjs';
import { TileType } from 'pmtiles';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BasemapUnavailableError, type BasemapProvider, type MapView } from '../../src/sdk/plugin.ts';
import pmtiles from '../../plugins/pmtiles/index.ts';
import { rasterizeBasemap, testContext, viewAt } from '../support/basemap.ts';
import { writePmtiles, type ArchiveTile } from '../support/pmtiles.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

/** The colour that marks tile z/x/y. */
const mark = (z: number, x: number, y: number): [number, number, number] => [40 + z * 50, 30 + x * 30, 30 + y * 30];

function solidPng([r, g, b]: [number, number, number]): Uint8Array {
  const png = new PNG({ width: 256, height: 256 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([r, g, b, 255], i);
  return new Uint8Array(PNG.sync.write(png));
}

/** Every tile of zooms 0–2 except 2/3/3, which is missing. */
function archiveTiles(): ArchiveTile[] {
  const tiles: ArchiveTile[] = [];
  for (let z = 0; z <= 2; z++) {
    for (let x = 0; x < 2 ** z; x++) {
      for (let y = 0; y < 2 ** z; y++) if (!(z === 2 && x === 3 && y === 3)) tiles.push({ z, x, y, bytes: solidPng(mark(z, x, y)) });
    }
  }
  return tiles;
}

const dir = makeTempDir();
const archivePath = join(dir, 'marked.pmtiles');
writePmtiles(archivePath, archiveTiles(), { minZoom: 0, maxZoom: 2, metadata: { attribution: '© Test tiles' } });

const opened: BasemapProvider[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((provider) => provider.close?.()));
});
afterAll(removeTempDirs);

async function provider(options: Record<string, unknown> = { path: archivePath }): Promise<BasemapProvider> {
  const created = await pmtiles.create(options, testContext('tiles'));
  opened.push(created);
  return created;
}

async function draw(view: MapView, from?: BasemapProvider) {
  const basemap = await (from ?? (await provider())).render({ view, type: 'Road', culture: 'English', signal: new AbortController().signal });
  return { basemap, image: rasterizeBasemap(basemap, view) };
}

/** The tile colour expected at image pixel (px, py) when tiles of `tileZoom` cover a `view`. */
function expectedAt(view: MapView, px: number, py: number, tileZoom: number): [number, number, number] {
  const size = 256 * 2 ** (view.zoom - tileZoom);
  const columns = 2 ** tileZoom;
  const column = Math.floor((view.left + px) / size);
  return mark(tileZoom, ((column % columns) + columns) % columns, Math.floor((view.top + py) / size));
}

describe('pmtiles basemap', () => {
  it('places each tile exactly on the pixel grid, with the archive attribution', async () => {
    const view = viewAt(2, 200, 100, 400, 300);
    const { basemap, image } = await draw(view);
    expect(basemap.attribution).toBe('© Test tiles');
    // Pixels on both sides of tile edges: world x 255/256 is image x 55/56; world y 255/256 is 155/156.
    for (const [px, py] of [[10, 10], [55, 10], [56, 10], [10, 155], [10, 156], [300, 250], [399, 299]]) {
      expect(image.pixel(px, py).slice(0, 3), `pixel ${px},${py}`).toEqual(expectedAt(view, px, py, 2));
      expect(image.pixel(px, py)[3]).toBe(255);
    }
  });

  it('wraps columns around the antimeridian', async () => {
    const view = viewAt(1, -100, 0, 300, 200);
    const { image } = await draw(view);
    expect(image.pixel(10, 10).slice(0, 3)).toEqual(mark(1, 1, 0)); // world x -90: the last column
    expect(image.pixel(150, 10).slice(0, 3)).toEqual(mark(1, 0, 0));
  });

  it('scales the deepest tiles up past the archive maximum zoom', async () => {
    const view = viewAt(4, 1000, 2000, 200, 200); // tiles of zoom 2 cover 1024 px each here
    const { basemap, image } = await draw(view);
    expect(basemap.below.images?.every((tile) => tile.width === 1024 && tile.height === 1024)).toBe(true);
    expect(image.pixel(10, 10).slice(0, 3)).toEqual(expectedAt(view, 10, 10, 2));
    expect(image.pixel(30, 10).slice(0, 3)).toEqual(expectedAt(view, 30, 10, 2));
    expect(expectedAt(view, 10, 10, 2)).not.toEqual(expectedAt(view, 30, 10, 2));
    // Far past the maximum the one covering tile is still found and drawn.
    const deep = viewAt(22, 2 ** 29 + 5, 2 ** 29 + 5, 64, 64);
    expect((await draw(deep)).image.pixel(32, 32).slice(0, 3)).toEqual(mark(2, 2, 2));
  });

  it('leaves a missing tile empty and draws the rest', async () => {
    const view = viewAt(2, 640, 640, 256, 256); // meets tiles 2/2/2, 2/3/2, 2/2/3 and the missing 2/3/3
    const { basemap, image } = await draw(view);
    expect(basemap.below.images).toHaveLength(3);
    expect(image.pixel(200, 200)[3]).toBe(0);
    expect(image.pixel(50, 50).slice(0, 3)).toEqual(mark(2, 2, 2));
  });

  it('takes the attribution option over the archive metadata, and a path relative to the working directory', async () => {
    const created = await provider({ path: relative(process.cwd(), archivePath), attribution: 'Mine' });
    const { basemap } = await draw(viewAt(0, 0, 0), created);
    expect(basemap.attribution).toBe('Mine');
  });

  it('refuses a missing or damaged archive at creation, naming the file', async () => {
    const missing = join(dir, 'missing.pmtiles');
    await expect(provider({ path: missing })).rejects.toThrow(missing);
    const damaged = join(dir, 'damaged.pmtiles');
    writeFileSync(damaged, 'this is not an archive '.repeat(20));
    await expect(provider({ path: damaged })).rejects.toThrow(damaged);
    const vector = join(dir, 'vector.pmtiles');
    writePmtiles(vector, [{ z: 0, x: 0, y: 0, bytes: new Uint8Array([1, 2, 3]) }], { minZoom: 0, maxZoom: 0, tileType: TileType.Mvt });
    await expect(provider({ path: vector })).rejects.toThrow(/Mvt tiles/);
    await expect(provider({})).rejects.toThrow(/option 'path'/);
  });

  it('reports a failed read as the basemap being unavailable', async () => {
    const created = await pmtiles.create({ path: archivePath }, testContext('tiles'));
    await created.close?.();
    await expect(draw(viewAt(2, 0, 0), created)).rejects.toBeInstanceOf(BasemapUnavailableError);
  });
});
