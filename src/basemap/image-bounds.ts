/**
 * The images a basemap provider hands over, held against a bound on the size their headers
 * declare before any reaches a drawing worker: resvg allocates what a header declares, and a
 * plugin of a third party, or a server behind it, may pass on a tile of a few bytes that
 * declares 100000 × 100000 pixels. Our plugins check what they fetch themselves (and keep
 * nothing oversized); this holds for every plugin.
 */
import type { Basemap, PlacedImage } from '../plugin-contract/basemap-plugin.ts';
import { imageSizeProblem, MAX_TILE_PIXELS } from '../plugin-contract/image-size.ts';

/**
 * Why the basemap cannot be drawn (an image of it declares too many pixels), or undefined
 * when it can. Any image may be as large as a tile may be (MAX_TILE_PIXELS); one that covers
 * more of the map may have up to twice the real pixels it covers a side (a server's denser
 * image of the view): more only costs memory, and shows no more.
 */
export function oversizedBasemapImage(basemap: Basemap, pixelRatio: number): string | undefined {
  const images: PlacedImage[] = [...(basemap.below.images ?? []), ...(basemap.above?.images ?? [])];
  for (const image of images) {
    const bound = {
      width: Math.max(MAX_TILE_PIXELS.width, 2 * Math.ceil(image.width * pixelRatio)),
      height: Math.max(MAX_TILE_PIXELS.height, 2 * Math.ceil(image.height * pixelRatio)),
    };
    const problem = imageSizeProblem(image.bytes, bound);
    if (problem) return `an image it sent is not drawn: ${problem}.`;
  }
  return undefined;
}
