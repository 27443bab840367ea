/**
 * A map's raster tiles, decoded (by resvg) at the size they are drawn, in real pixels, and
 * kept on this worker: the same tiles come back map after map, and decoding a dozen of them
 * inside every render cost resvg ~5 ms a map.
 */
import type { PlacedImage } from '../plugin-contract/basemap-plugin.ts';
import { crc32 } from '../raster/png.js';
import { renderPixels } from '../raster/rasterize.ts';
import type { Rasterizer } from '../raster/resvg.js';
import { arrayBytes, byteBoundedCache } from '../structures/byte-bounded-cache.ts';
import { imageSvg } from './map-svg.ts';

/** 64 MB a worker: about 256 tiles of 256 x 256, those of twenty 640 x 480 maps (of five at scale=2). */
export const TILE_PIXELS_CACHE_BYTES = 64 * 1024 * 1024;
/**
 * The largest image laid on the canvas from here: a few tiles' worth. A bigger one (a WMS
 * map drawn in one piece, a tile scaled up far past its source's deepest zoom) is seldom
 * asked for again, would push dozens of tiles out, and decoded whole could need far more
 * pixels than the map has: resvg draws it with the map instead, clipped to the image.
 */
const MAX_TILE_CSS_PIXELS = 4 * 256 * 256;
const tiles = byteBoundedCache<Uint8Array>(TILE_PIXELS_CACHE_BYTES, arrayBytes);

/** The tile's premultiplied RGBA pixels at its drawn width and height times `pixelRatio` (real pixels); `tilesFromCache` said it may. */
export function tilePixels(resvg: Rasterizer, image: PlacedImage, pixelRatio: number): Uint8Array {
  const key = `${image.width}x${image.height}@${pixelRatio} ${image.mime} ${image.bytes.length} ${crc32(image.bytes)}`;
  const kept = tiles.get(key);
  if (kept) return kept;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${image.width}" height="${image.height}">` +
    imageSvg({ ...image, x: 0, y: 0 }) +
    '</svg>';
  const pixels = renderPixels(resvg, svg, { width: image.width, height: image.height, pixelRatio, fonts: [] });
  tiles.set(key, pixels);
  return pixels;
}

/**
 * Whether the images can be laid from here: tiles on the pixel grid (map/view.ts snaps the
 * view), none bigger than MAX_TILE_CSS_PIXELS. Anything else goes through resvg whole.
 */
export function tilesFromCache(images: readonly PlacedImage[]): boolean {
  return images.every(
    (image) => [image.x, image.y, image.width, image.height].every(Number.isInteger) && image.width * image.height <= MAX_TILE_CSS_PIXELS,
  );
}
