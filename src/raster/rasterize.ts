/**
 * An SVG to the bytes of its PNG, on a drawing worker: resvg draws the pixels and our encoder
 * (png.js; a palette PNG when the colours are few) writes them, since resvg's own asPng()
 * compresses hard and costs several times the rendering. Every picture's pixels come from here.
 */
import { collectBeforeNativeAllocation } from './collect-garbage.js';
import { encodeIndexedPng, encodePng, scanlineBuffer } from './png.js';
import { indexColours } from './palette.ts';
import type { Rasterizer } from './resvg.js';
import { noLap, type Lap } from '../stages.ts';
import { unpremultiplyInPlace } from './unpremultiply.js';

/** How resvg draws an SVG. */
export interface RenderOptions {
  /** The SVG's own size, in CSS pixels. */
  width: number;
  height: number;
  /** Real pixels per CSS pixel: resvg draws the SVG zoomed by it (line widths and text with it). */
  pixelRatio: number;
  /** Font files the SVG's text needs; none when there is no text, since loading fonts takes time. */
  fonts: readonly string[];
}

/** An image's real size in pixels, and how hard its PNG is compressed. */
export interface PngOptions {
  width: number;
  height: number;
  /** zlib level of the PNG, 0–9. */
  compressionLevel: number;
}

type RasterizeOptions = RenderOptions & Pick<PngOptions, 'compressionLevel'>;

/** The PNG of `svg`, drawn by resvg at width × pixelRatio by height × pixelRatio pixels. */
export function rasterize(resvg: Rasterizer, svg: string, options: RasterizeOptions, lap: Lap = noLap): Uint8Array {
  const { width, height, pixelRatio, compressionLevel } = options;
  return encodeImage(renderPixels(resvg, svg, options, lap), { width: width * pixelRatio, height: height * pixelRatio, compressionLevel }, lap);
}

/** `svg` drawn by resvg at `pixelRatio` real pixels per CSS pixel: premultiplied RGBA, row by row. */
export function renderPixels(resvg: Rasterizer, svg: string, { width, height, pixelRatio, fonts }: RenderOptions, lap: Lap = noLap): Uint8Array {
  // Only the fonts asked for: loading the system fonts would cost milliseconds per render.
  const font = fonts.length > 0
    ? { fontFiles: [...fonts], loadSystemFonts: false, defaultFontFamily: 'Noto Sans' }
    : { loadSystemFonts: false };
  collectBeforeNativeAllocation(width * pixelRatio * height * pixelRatio * 4);
  const image = resvg.render(svg, font, pixelRatio, lap);
  if (image.width !== width * pixelRatio || image.height !== height * pixelRatio) {
    throw new Error(`Rendered ${image.width}x${image.height}, expected ${width * pixelRatio}x${height * pixelRatio}`);
  }
  return image.pixels;
}

/**
 * Premultiplied RGBA as a PNG (straight alpha): a palette PNG when the image has few enough
 * distinct pixels, which is exact, else RGBA. resvg's own asPng() compresses hard and costs
 * several times the rendering.
 */
export function encodeImage(pixels: Uint8Array, { width, height, compressionLevel }: PngOptions, lap: Lap = noLap): Uint8Array {
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
