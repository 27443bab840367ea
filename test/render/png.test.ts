import { describe, expect, it } from 'vitest';
import { encodePng } from '../../src/raster/png.js';
import { encodeImage } from '../../src/raster/rasterize.ts';
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

describe('encodeImage', () => {
  const options = (width: number, height: number) => ({ width, height, fonts: [], compressionLevel: 2 });

  /** Premultiplied RGBA of `colours` distinct pixels, some translucent, in runs and scattered. */
  function premultipliedImage(width: number, height: number, colours: number): Uint8Array {
    const rgba = new Uint8Array(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      const colour = (i % 7 === 0 ? i * 31 : Math.floor(i / 50)) % colours;
      const alpha = colour % 3 === 0 ? 255 : (colour * 53) % 256;
      rgba.set([(colour * 7) % (alpha + 1), (colour * 13) % (alpha + 1), (colour * 29) % (alpha + 1), alpha], i * 4);
    }
    return rgba;
  }

  function straight(premultiplied: Uint8Array): Uint8Array {
    return unpremultiplyInPlace(premultiplied.slice());
  }

  it('writes an image of at most 256 distinct pixels as an exact palette PNG', () => {
    for (const colours of [1, 2, 60, 256]) {
      const pixels = premultipliedImage(97, 31, colours);
      const expected = straight(pixels);
      const png = encodeImage(pixels, options(97, 31));
      expect(png[25], 'colour type').toBe(3);
      expect(decodePng(png).data).toEqual(expected);
    }
  });

  it('writes an image of more distinct pixels as RGBA, exactly', () => {
    const pixels = premultipliedImage(97, 31, 257);
    const expected = straight(pixels);
    const png = encodeImage(pixels, options(97, 31));
    expect(png[25], 'colour type').toBe(6);
    expect(decodePng(png).data).toEqual(expected);
  });

  it('leaves out tRNS when every palette entry is opaque', () => {
    const pixels = new Uint8Array(16 * 16 * 4).fill(255);
    const png = encodeImage(pixels, options(16, 16));
    expect(Buffer.from(png).includes('tRNS')).toBe(false);
    expect(decodePng(png).pixel(3, 3)).toEqual([255, 255, 255, 255]);
  });
});
