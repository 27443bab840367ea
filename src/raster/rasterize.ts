import { noteNativeGarbage } from './collect-garbage.js';
import { encodePng } from './png.js';
import type { Rasterizer } from './resvg.js';
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
export function rasterize(resvg: Rasterizer, svg: string, { width, height, fonts, compressionLevel }: RasterizeOptions): Uint8Array {
  // Only the fonts asked for: loading the system fonts would cost milliseconds per render.
  const font = fonts.length > 0
    ? { fontFiles: [...fonts], loadSystemFonts: false, defaultFontFamily: 'Noto Sans' }
    : { loadSystemFonts: false };
  const image = resvg.render(svg, font);
  if (image.width !== width || image.height !== height) {
    throw new Error(`Rendered ${image.width}x${image.height}, expected ${width}x${height}`);
  }
  // resvg's own asPng() compresses hard and costs several times the rendering itself.
  const png = encodePng(unpremultiplyInPlace(image.pixels), width, height, compressionLevel);
  noteNativeGarbage(width * height * 4);
  return png;
}
