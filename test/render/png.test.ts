import { describe, expect, it } from 'vitest';
import { encodePng } from '../../src/raster/png.js';
import { unpremultiplyInPlace } from '../../src/raster/unpremultiply.js';
import { decodePng } from '../support/png.ts';

describe('encodePng', () => {
  it('decodes to exactly the pixels it was given', () => {
    const width = 7;
    const height = 5;
    const rgba = new Uint8Array(width * height * 4).map((_, i) => (i * 37 + (i >> 2) * 11) % 256);
    for (const level of [0, 1, 9]) {
      const image = decodePng(encodePng(rgba, width, height, level));
      expect([image.width, image.height]).toEqual([width, height]);
      expect(image.data).toEqual(rgba);
    }
  });

  it('refuses a pixel buffer of the wrong size', () => {
    expect(() => encodePng(new Uint8Array(10), 2, 2)).toThrow(RangeError);
  });
});

describe('unpremultiplyInPlace', () => {
  it('restores straight alpha for partly transparent pixels and leaves the rest alone', () => {
    const premultiplied = Uint8Array.from([
      255, 0, 0, 255, // opaque red
      0, 0, 0, 0, // transparent
      64, 32, 0, 128, // half-transparent orange (128, 64, 0)
      51, 51, 51, 51, // white at 20 %
    ]);
    const image = decodePng(encodePng(unpremultiplyInPlace(premultiplied), 4, 1));
    expect(image.pixel(0, 0)).toEqual([255, 0, 0, 255]);
    expect(image.pixel(1, 0)).toEqual([0, 0, 0, 0]);
    expect(image.pixel(2, 0)).toEqual([128, 64, 0, 128]);
    expect(image.pixel(3, 0)).toEqual([255, 255, 255, 51]);
  });
});
