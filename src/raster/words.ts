/**
 * RGBA bytes seen as one 32-bit word a pixel, so that pixel loops read, compare and write
 * whole pixels. Words are in the platform's byte order: code that takes them apart says so.
 */
export function pixelWords(bytes: Uint8Array): Uint32Array {
  if (bytes.byteOffset % 4 !== 0) throw new RangeError('Pixel buffers start on a 4-byte boundary');
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
}
