import { noteNativeGarbage } from './collect-garbage.js';
import { encodeIndexedPng, encodePng, scanlineBuffer } from './png.js';
import { indexColours } from './palette.ts';
import type { Rasterizer } from './resvg.js';
import { noLap, type Lap } from '../stages.ts';
import { unpremultiplyInPlace } from './unpremultiply.js';

export interface RasterizeOptions {
  width: number;
  height: number;
  /** Font files the SVG's text needs; none when there is no text, since loading fonts takes time. */
  fonts: readonly string[];
  /** zlib level of the PNG, 0–9. */
  compressionLevel: number;
}

/** The PNG of `svg`, drawn by resvg. */
export function rasterize(resvg: Rasterizer, svg: string, options: RasterizeOptions, lap: Lap = noLap): Uint8Array {
  return encodeImage(renderPixels(resvg, svg, options, lap), options, lap);
}

/** `svg` drawn by resvg: premultiplied RGBA, row by row. */
export function renderPixels(
  resvg: Rasterizer,
  svg: string,
  { width, height, fonts }: Pick<RasterizeOptions, 'width' | 'height' | 'fonts'>,
  lap: Lap = noLap,
): Uint8Array {
  // Only the fonts asked for: loading the system fonts would cost milliseconds per render.
  const font = fonts.length > 0
    ? { fontFiles: [...fonts], loadSystemFonts: false, defaultFontFamily: 'Noto Sans' }
    : { loadSystemFonts: false };
  const image = resvg.render(svg, font, lap);
  if (image.width !== width || image.height !== height) {
    throw new Error(`Rendered ${image.width}x${image.height}, expected ${width}x${height}`);
  }
  noteNativeGarbage(width * height * 4);
  return image.pixels;
}

/**
 * Premultiplied RGBA as a PNG (straight alpha): a palette PNG when the image has few enough
 * distinct pixels, which is exact, else RGBA. resvg's own asPng() compresses hard and costs
 * several times the rendering.
 */
export function encodeImage(pixels: Uint8Array, { width, height, compressionLevel }: RasterizeOptions, lap: Lap = noLap): Uint8Array {
  const indexed = indexColours(pixels, width, height, scanlineBuffer((width + 1) * height));
  if (indexed) {
    unpremultiplyInPlace(indexed.palette);
    lap('palette');
    const png = encodeIndexedPng(indexed.scanlines, indexed.palette, width, height, compressionLevel);
    lap('png');
    return png;
  }
  lap('palette');
  unpremultiplyInPlace(pixels);
  lap('unpremultiply');
  const png = encodePng(pixels, width, height, compressionLevel);
  lap('png');
  return png;
}
