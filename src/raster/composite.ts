/**
 * Premultiplied RGBA images laid over one another: what resvg would do with a map's tiles,
 * done once per tile instead of decoding every tile again for every map.
 */
import { pixelWords } from './words.ts';

/**
 * Draws `image` (w × h) over `canvas` (canvasWidth × canvasHeight) with its top-left
 * corner at the whole pixel (x, y), clipped to the canvas; both premultiplied RGBA.
 */
export function drawOver(
  canvas: Uint8Array,
  canvasWidth: number,
  canvasHeight: number,
  image: Uint8Array,
  w: number,
  h: number,
  x: number,
  y: number,
): void {
  const left = Math.max(0, x);
  const right = Math.min(canvasWidth, x + w);
  const top = Math.max(0, y);
  const bottom = Math.min(canvasHeight, y + h);
  if (left >= right || top >= bottom) return;
  const canvasWords = pixelWords(canvas);
  const imageWords = pixelWords(image);
  const opaque = isOpaque(imageWords);
  for (let row = top; row < bottom; row++) {
    let at = row * canvasWidth + left;
    let from = (row - y) * w + (left - x);
    if (opaque) {
      canvasWords.set(imageWords.subarray(from, from + right - left), at);
      continue;
    }
    for (let column = left; column < right; column++, at++, from++) {
      const source = imageWords[from];
      const alpha = source >>> 24;
      if (alpha === 255) canvasWords[at] = source;
      else if (alpha !== 0) canvasWords[at] = over(source, canvasWords[at], alpha);
    }
  }
}

/** Whether every pixel is opaque (tiles mostly are); remembered per image, which never changes once drawn. */
const opaqueImages = new WeakMap<Uint32Array['buffer'], boolean>();

function isOpaque(pixels: Uint32Array): boolean {
  let opaque = opaqueImages.get(pixels.buffer);
  if (opaque === undefined) {
    opaque = true;
    for (let i = 0; i < pixels.length && opaque; i++) opaque = pixels[i] >>> 24 === 255;
    opaqueImages.set(pixels.buffer, opaque);
  }
  return opaque;
}

/** `top` over `bottom`, both premultiplied and of the same size, into `bottom`. */
export function layOver(top: Uint8Array, bottom: Uint8Array): Uint8Array {
  const topWords = pixelWords(top);
  const bottomWords = pixelWords(bottom);
  for (let i = 0; i < topWords.length; i++) {
    const source = topWords[i];
    const alpha = source >>> 24;
    if (alpha === 255) bottomWords[i] = source;
    else if (alpha !== 0) bottomWords[i] = over(source, bottomWords[i], alpha);
  }
  return bottom;
}

/**
 * One premultiplied pixel over another (little-endian words: R in the low byte, A in the
 * high), as tiny-skia blends: each channel of `destination` times 255 - `sourceAlpha`,
 * divided by 255 rounded, plus the source's. Red and blue, then green and alpha, are
 * worked two at a time in one number (neither product reaches 2^16 a lane); a premultiplied
 * source never carries into the next channel.
 */
export function over(source: number, destination: number, sourceAlpha: number): number {
  const keep = 255 - sourceAlpha;
  const redBlue = div255Lanes((destination & 0x00ff00ff) * keep);
  const greenAlpha = div255Lanes(((destination >>> 8) & 0x00ff00ff) * keep);
  return (source + ((redBlue | (greenAlpha << 8)) >>> 0)) >>> 0;
}

/** Rounded division by 255 of two 16-bit lanes at once, as tiny-skia divides one. */
function div255Lanes(lanes: number): number {
  const v = lanes + 0x00800080;
  return ((v + ((v >>> 8) & 0x00ff00ff)) >>> 8) & 0x00ff00ff;
}
