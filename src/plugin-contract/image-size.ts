/**
 * The size an encoded image declares in its header (PNG IHDR, JPEG SOF, WebP VP8/VP8L/VP8X),
 * read without decoding it. A decoder allocates what the header declares: a tile of a few
 * hundred bytes that declares 100000 × 100000 pixels would ask resvg for 40 GB. Tiles and
 * map images from another server are held against a bound on this before they are drawn.
 */

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * The pixels a tile may declare: 256 or 512 a side, twice that for a dense (@2x) one, with
 * room to spare. One bound for the service (every basemap image) and the tile plugins, so
 * that a tile one lets through the other does not refuse.
 */
export const MAX_TILE_PIXELS: ImageSize = { width: 2048, height: 2048 };

/** The declared size, or undefined when the header is not one of a PNG, JPEG or WebP, or is cut short. */
export function declaredImageSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes[0] === 0x89 && ascii(bytes, 1, 4) === 'PNG') return pngSize(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return webpSize(bytes);
  return undefined;
}

/**
 * Why an image may not be drawn, as the end of a sentence ("it declares … pixels; at most …"),
 * or undefined when it may: its declared size is within `max`. An image whose size cannot be
 * read is refused too, since nothing then bounds what decoding it would take.
 */
export function imageSizeProblem(bytes: Uint8Array, max: ImageSize): string | undefined {
  const size = declaredImageSize(bytes);
  if (size === undefined) return 'its header does not say its size (not a whole PNG, JPEG or WebP image)';
  if (size.width <= max.width && size.height <= max.height) return undefined;
  return `it declares ${size.width} × ${size.height} pixels; at most ${max.width} × ${max.height} are drawn`;
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return bytes.length < to ? '' : String.fromCharCode(...bytes.subarray(from, to));
}

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The first chunk of a PNG is IHDR: width and height, 4 bytes each, big-endian. */
function pngSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 24 || ascii(bytes, 12, 16) !== 'IHDR') return undefined;
  return { width: view(bytes).getUint32(16), height: view(bytes).getUint32(20) };
}

/** Start-of-frame markers (SOF0–SOF15), less DHT (C4), JPG (C8) and DAC (CC), which share the range. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/**
 * The segments of a JPEG up to its start of frame, which holds height then width (2 bytes
 * each, big-endian). Each step jumps a whole segment, so the walk is linear in the header.
 */
function jpegSize(bytes: Uint8Array): ImageSize | undefined {
  const data = view(bytes);
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1];
    // Fill bytes before a marker; markers without a length (TEM, RSTn).
    if (marker === 0xff || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    // The image data (SOS) or its end (EOI) before any frame header: none to read.
    if (marker === 0xda || marker === 0xd9) return undefined;
    if (isStartOfFrame(marker)) return at + 9 <= bytes.length ? { width: data.getUint16(at + 7), height: data.getUint16(at + 5) } : undefined;
    at += 2 + data.getUint16(at + 2);
  }
  return undefined;
}

/** The first chunk of a WebP: lossy (VP8), lossless (VP8L) or extended (VP8X), each with the size in its own layout. */
function webpSize(bytes: Uint8Array): ImageSize | undefined {
  const data = view(bytes);
  switch (ascii(bytes, 12, 16)) {
    case 'VP8 ':
      // A key frame: 3 bytes of frame tag, the start code 9D 01 2A, then 14-bit width and height (little-endian).
      if (bytes.length < 30 || bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return undefined;
      return { width: data.getUint16(26, true) & 0x3fff, height: data.getUint16(28, true) & 0x3fff };
    case 'VP8L': {
      // The signature 2F, then width - 1 and height - 1 in 14 bits each.
      if (bytes.length < 25 || bytes[20] !== 0x2f) return undefined;
      const bits = data.getUint32(21, true);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8X':
      // Flags and reserved bytes, then canvas width - 1 and height - 1 in 24 bits each.
      if (bytes.length < 30) return undefined;
      return { width: uint24(bytes, 24) + 1, height: uint24(bytes, 27) + 1 };
    default:
      return undefined;
  }
}

function uint24(bytes: Uint8Array, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
}
