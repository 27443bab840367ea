/**
 * The basemap's attribution as a strip of pixels for a map's bottom-right corner, drawn
 * once per text, width and pixel ratio and kept on this worker (a map service shows few
 * texts, and rasterizing one costs resvg a text layout). Kept within a byte bound, keys
 * included: the text is the provider's, of any length, and the strip as wide as the map.
 */
import { rasterize } from '../raster/rasterize.ts';
import { arrayBytes, byteBoundedCache } from '../structures/byte-bounded-cache.ts';
import type { DrawingContext } from '../job-context/context.ts';
import { attributionStripSvg } from './map-svg.ts';

/** A strip is a few kilobytes of PNG: this keeps hundreds. */
export const ATTRIBUTION_STRIPS_CACHE_BYTES = 2 * 1024 * 1024;

const strips = byteBoundedCache<Uint8Array>(ATTRIBUTION_STRIPS_CACHE_BYTES, arrayBytes);

/** The strip as a PNG of width × pixelRatio real pixels, so that the map draws it one to one. */
export function attributionStrip(context: Pick<DrawingContext, 'rasterizer' | 'compressionLevel'>, text: string, width: number, pixelRatio: number): Uint8Array {
  const key = `${width}\0${pixelRatio}\0${text}`;
  let png = strips.get(key);
  if (!png) {
    const strip = attributionStripSvg(text, width);
    png = rasterize(context.rasterizer, strip.svg, {
      width,
      height: strip.height,
      pixelRatio,
      fonts: strip.fonts,
      compressionLevel: context.compressionLevel,
    });
    strips.set(key, png);
  }
  return png;
}
