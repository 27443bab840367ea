/**
 * The pixel budget of images and maps (docs/decisions.md, "Images for screens and caches"):
 * known from the parameters alone (size, scale, the number of images), so it is checked on the
 * main thread before any job runs, and a request for too many pixels costs no worker anything.
 */
import { BadRequestError } from '../errors.ts';
import type { ImageSize } from '../params/fields.ts';

/**
 * Refuses, before anything is read or allocated, a request that would make more than
 * `maxPixels` real pixels: `imageCount` images of `size` CSS pixels, each `scale` times
 * as many real pixels on either side. One picture never has more real pixels than one of
 * `maxSize` by `maxSize` at scale 1: what a worker holds for one picture (its pixels, a
 * map's canvas, an encoder's copy) stays what it was before `scale`.
 */
export function checkPixelBudget(imageCount: number, size: ImageSize, scale: number, { maxPixels, maxSize }: { maxPixels: number; maxSize: number }): void {
  const [width, height] = [size.width * scale, size.height * scale];
  if (width * height > maxSize * maxSize) {
    throw new BadRequestError(
      `One image of size ${size.height},${size.width} at scale ${scale} would have ${width}x${height} pixels; at most ` +
        `${maxSize * maxSize} (limits.maxSize squared) are allowed in one image. Ask for a smaller size or scale.`,
    );
  }
  const pixels = imageCount * width * height;
  if (pixels > maxPixels) {
    const atScale = scale === 1 ? '' : ` (size ${size.height},${size.width} at scale ${scale})`;
    throw new BadRequestError(
      `The request would draw ${imageCount} image(s) of ${width}x${height} pixels${atScale}, ${pixels} pixels in all; ` +
        `at most ${maxPixels} pixels (limits.maxPixelsPerRequest) are allowed per request. ` +
        'Ask for fewer or smaller images, or a smaller scale.',
    );
  }
}
