/**
 * A map's raster tiles, decoded (by resvg) at the size they are drawn and kept on this
 * worker: the same tiles come back map after map, and decoding a dozen of them inside every
 * render cost resvg ~5 ms a map.
 */
import type { PlacedImage } from '../sdk/contract.ts';
import { crc32 } from '../raster/png.js';
import { renderPixels } from '../raster/rasterize.ts';
import type { Rasterizer } from '../raster/resvg.js';
import { imageSvg } from './map-svg.ts';

/** 256 kB each at 256 x 256: 64 MB a worker, the tiles of twenty 640 x 480 maps. */
const MAX_TILES = 256;
const tiles = new Map<string, Uint8Array>();

/** The image's premultiplied RGBA pixels at its drawn width and height. */
export function tilePixels(resvg: Rasterizer, image: PlacedImage): Uint8Array {
  const key = `${image.width}x${image.height} ${image.mime} ${image.bytes.length} ${crc32(image.bytes)}`;
  let pixels = tiles.get(key);
  if (pixels) {
    tiles.delete(key);
  } else {
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${image.width}" height="${image.height}">` +
      imageSvg({ ...image, x: 0, y: 0 }) +
      '</svg>';
    pixels = renderPixels(resvg, svg, { width: image.width, height: image.height, fonts: [] });
    if (tiles.size >= MAX_TILES) tiles.delete(tiles.keys().next().value!);
  }
  tiles.set(key, pixels);
  return pixels;
}

/** Tiles are laid on the pixel grid (map/view.ts snaps the view): anything else goes through resvg whole. */
export function onPixelGrid(images: readonly PlacedImage[]): boolean {
  return images.every((image) => [image.x, image.y, image.width, image.height].every(Number.isInteger));
}
