import { PNG } from 'pngjs';

export type RgbaPixel = [number, number, number, number];

export interface DecodedPng {
  width: number;
  height: number;
  /** Straight-alpha RGBA, row by row. */
  data: Uint8Array;
  /** [r, g, b, a] of the pixel at column x, row y. */
  pixel(x: number, y: number): RgbaPixel;
}

export function decodePng(bytes: Uint8Array): DecodedPng {
  const png = PNG.sync.read(Buffer.from(bytes));
  const data = new Uint8Array(png.data);
  return {
    width: png.width,
    height: png.height,
    data,
    pixel(x, y) {
      const i = (y * png.width + x) * 4;
      return [data[i], data[i + 1], data[i + 2], data[i + 3]];
    },
  };
}

/** The bounding box of pixels whose alpha is above `minAlpha`, or undefined if none is. */
export function opaqueBounds(image: DecodedPng, minAlpha = 0) {
  let xmin = Infinity;
  let ymin = Infinity;
  let xmax = -Infinity;
  let ymax = -Infinity;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (image.data[(y * image.width + x) * 4 + 3] <= minAlpha) continue;
      xmin = Math.min(xmin, x);
      xmax = Math.max(xmax, x);
      ymin = Math.min(ymin, y);
      ymax = Math.max(ymax, y);
    }
  }
  return xmin <= xmax ? { xmin, ymin, xmax, ymax } : undefined;
}

/** A pixel's colour as `#rrggbb` (alpha left out), as legends and SVG write colours. */
export function hexColour([r, g, b]: readonly number[]): string {
  return `#${[r, g, b].map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
}
