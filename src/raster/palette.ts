/**
 * A drawing of a few flat colours has few distinct pixels even with anti-aliasing: resvg's
 * coverage levels make about 60 for a filled, outlined polygon. Such an image is stored
 * exactly as a palette PNG: one byte a pixel instead of four, so zlib has a quarter of the
 * bytes to compress, and only the palette entries need un-premultiplying.
 */
import { pixelWords } from './words.ts';

/** The most colours a PNG palette holds. */
export const MAX_PALETTE_COLOURS = 256;

export interface IndexedImage {
  /** The distinct pixels as RGBA bytes, in the order first met. */
  palette: Uint8Array;
  /** PNG's scanlines: each row a filter byte (0: none), then one palette index a pixel. */
  scanlines: Uint8Array;
}

const SLOTS = 4096;
const slotPixel = new Int32Array(SLOTS);
/** Palette index + 1 of the pixel in the slot; 0: the slot is free. */
const slotEntry = new Uint16Array(SLOTS);
/** Runs up to this long are written a byte at a time: fill() costs more to call. */
const SHORT_RUN = 16;
const FILTER_NONE = 0;

/**
 * `rgba` (width × height) as palette indices written into `scanlines` ((width + 1) × height
 * bytes), or undefined if it has more distinct pixels than a palette holds. The pixels are
 * taken as they are (premultiplied or not).
 */
export function indexColours(rgba: Uint8Array, width: number, height: number, scanlines: Uint8Array): IndexedImage | undefined {
  // Signed words: an opaque pixel as an unsigned one is above 2^31, which V8 keeps as a
  // heap number rather than a small integer, and that made this loop three times slower.
  const words = pixelWords(rgba);
  const pixels = new Int32Array(words.buffer, words.byteOffset, words.length);
  const palette = new Int32Array(MAX_PALETTE_COLOURS);
  let colours = 0;
  slotEntry.fill(0);
  let from = 0;
  let to = 0;
  for (let y = 0; y < height; y++) {
    scanlines[to++] = FILTER_NONE;
    const rowEnd = from + width;
    // Neighbours are mostly the same pixel: each run is looked up once and written at once.
    while (from < rowEnd) {
      const pixel = pixels[from];
      let runEnd = from + 1;
      while (runEnd < rowEnd && pixels[runEnd] === pixel) runEnd++;
      let slot = Math.imul(pixel, 0x9e3779b1) >>> 20;
      while (slotEntry[slot] !== 0 && slotPixel[slot] !== pixel) slot = (slot + 1) & (SLOTS - 1);
      if (slotEntry[slot] === 0) {
        if (colours === MAX_PALETTE_COLOURS) return undefined;
        palette[colours] = pixel;
        slotPixel[slot] = pixel;
        slotEntry[slot] = ++colours;
      }
      const entry = slotEntry[slot] - 1;
      const length = runEnd - from;
      if (length > SHORT_RUN) {
        scanlines.fill(entry, to, to + length);
        to += length;
      } else {
        for (let i = 0; i < length; i++) scanlines[to++] = entry;
      }
      from = runEnd;
    }
  }
  return { palette: new Uint8Array(palette.buffer, 0, colours * 4), scanlines };
}
