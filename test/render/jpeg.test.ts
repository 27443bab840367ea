import { describe, expect, it } from 'vitest';
import { flattenOverWhite } from '../../src/raster/jpeg.ts';

describe('flattenOverWhite', () => {
  it('lays premultiplied pixels over opaque white', () => {
    // Opaque blue, red at half opacity (premultiplied: 128 of red), nothing at all.
    const pixels = Uint8Array.of(0, 0, 255, 255, 128, 0, 0, 128, 0, 0, 0, 0);
    flattenOverWhite(pixels);
    expect(Array.from(pixels)).toEqual([0, 0, 255, 255, 255, 127, 127, 255, 255, 255, 255, 255]);
  });
});
