import { describe, expect, it } from 'vitest';
import { drawOver, layOver } from '../../src/raster/composite.ts';

/** A w × h premultiplied image of one colour. */
const image = (w: number, h: number, [r, g, b, a]: number[]) => Uint8Array.from({ length: w * h * 4 }, (_, i) => [r, g, b, a][i % 4]);
const pixel = (bytes: Uint8Array, width: number, x: number, y: number) => Array.from(bytes.subarray(4 * (y * width + x), 4 * (y * width + x) + 4));

describe('drawOver', () => {
  it('lays an opaque image at a whole pixel, clipped to the canvas', () => {
    const canvas = image(4, 3, [0, 0, 0, 0]);
    drawOver(canvas, 4, 3, image(2, 2, [10, 20, 30, 255]), 2, 2, 3, -1);
    expect(pixel(canvas, 4, 3, 0)).toEqual([10, 20, 30, 255]);
    expect(pixel(canvas, 4, 2, 0)).toEqual([0, 0, 0, 0]);
    expect(pixel(canvas, 4, 3, 1)).toEqual([0, 0, 0, 0]);
  });

  it('blends a translucent image over what is there, premultiplied', () => {
    const canvas = image(1, 1, [0, 0, 200, 255]);
    // Red at half opacity, premultiplied: 128 of red, alpha 128.
    drawOver(canvas, 1, 1, image(1, 1, [128, 0, 0, 128]), 1, 1, 0, 0);
    expect(pixel(canvas, 1, 0, 0)).toEqual([128, 0, 100, 255]);
  });

  it('leaves the canvas alone where the image is transparent, and outside it', () => {
    const canvas = image(2, 2, [1, 2, 3, 255]);
    drawOver(canvas, 2, 2, image(1, 1, [0, 0, 0, 0]), 1, 1, 0, 0);
    drawOver(canvas, 2, 2, image(1, 1, [9, 9, 9, 255]), 1, 1, 5, 5);
    expect(Array.from(canvas)).toEqual(Array.from(image(2, 2, [1, 2, 3, 255])));
  });
});

describe('layOver', () => {
  it('puts one layer over another of the same size', () => {
    const bottom = image(2, 1, [0, 100, 0, 255]);
    const top = Uint8Array.of(50, 0, 0, 128, 0, 0, 0, 0);
    expect(Array.from(layOver(top, bottom))).toEqual([50, 50, 0, 255, 0, 100, 0, 255]);
  });
});
