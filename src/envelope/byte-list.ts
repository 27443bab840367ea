/**
 * JSON's FeatureImage: the PNG as a list of byte values. The interface wants it this way;
 * join() on the main thread took 180 ms for 5 MB, so the drawing workers write it, straight
 * into the image's part of the envelope.
 */
import type { DeferredPiece } from './bounded-bytes.ts';

/** The ASCII digits of 0–255. */
const DIGITS = Array.from({ length: 256 }, (_, value) => Uint8Array.from(String(value), (digit) => digit.charCodeAt(0)));
const COMMA = 0x2c;

/**
 * Bytes as the text of a JSON array of integers, without its brackets ("137,80,78,…"), in
 * ASCII: its length from one pass over the bytes, its text only once it is written.
 */
export function byteList(bytes: Uint8Array): DeferredPiece {
  let length = Math.max(0, bytes.length - 1);
  for (let i = 0; i < bytes.length; i++) length += DIGITS[bytes[i]].length;
  return {
    length,
    writeInto(text) {
      let at = 0;
      for (let i = 0; i < bytes.length; i++) {
        if (i > 0) text[at++] = COMMA;
        const digits = DIGITS[bytes[i]];
        text.set(digits, at);
        at += digits.length;
      }
    },
  };
}
