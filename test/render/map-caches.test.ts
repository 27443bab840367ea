/**
 * The caches a drawing worker keeps for maps, filled with many distinct entries on this
 * thread: decoded raster tiles (tile-pixels.ts) and attribution strips
 * (attribution-strip.ts) hold no more than their byte bounds on the heap, keys included.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ATTRIBUTION_STRIPS_CACHE_BYTES, attributionStrip } from '../../src/drawing/attribution-strip.ts';
import { TILE_PIXELS_CACHE_BYTES, tilePixels } from '../../src/drawing/tile-pixels.ts';
import { encodePng } from '../../src/raster/png.js';
import { loadRasterizer, type Rasterizer } from '../../src/raster/resvg.js';
import { liveBytes } from '../support/heap.ts';

let rasterizer: Rasterizer;
beforeAll(async () => {
  rasterizer = await loadRasterizer();
});

/** Margin for what the measurement itself and the rasterizer's own buffers leave on the heap. */
const MARGIN = 2 * 1024 * 1024;

describe('the decoded tiles a worker keeps', () => {
  it('hold no more than their bound when maps bring more distinct tiles than fit', () => {
    const size = 512;
    // Decoded, a 512-px tile is 1 MB: 80 of them are a quarter more than the bound.
    const tiles = Array.from({ length: 80 }, (_, i) => {
      const rgba = new Uint8Array(size * size * 4).fill(i + 1);
      return { x: 0, y: 0, width: size, height: size, mime: 'image/png' as const, bytes: encodePng(rgba, size, size, 1) };
    });
    tilePixels(rasterizer, tiles[0], 1);
    const before = liveBytes();
    for (const tile of tiles) expect(tilePixels(rasterizer, tile, 1)).toHaveLength(size * size * 4);
    expect(liveBytes() - before).toBeLessThanOrEqual(TILE_PIXELS_CACHE_BYTES + MARGIN);
  }, 120_000);
});

describe('the attribution strips a worker keeps', () => {
  it('hold no more than their bound, however long the texts and however wide the maps', () => {
    const context = { rasterizer, compressionLevel: 2 };
    // Texts that fill the widest map at scale=3: each strip a PNG of about 110 KB, 48 of them 5 MB.
    const text = (i: number) => `© Provider ${i} ${'and its many contributors '.repeat(28)}`;
    attributionStrip(context, text(-1), 4096, 3);
    const before = liveBytes();
    for (let i = 0; i < 48; i++) expect(attributionStrip(context, text(i), 4096, 3).length).toBeGreaterThan(0);
    expect(liveBytes() - before).toBeLessThanOrEqual(ATTRIBUTION_STRIPS_CACHE_BYTES + MARGIN);
  }, 120_000);
});
