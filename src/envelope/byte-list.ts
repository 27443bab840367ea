/** The ASCII digits of 0–255. */
const DIGITS = Array.from({ length: 256 }, (_, value) => Uint8Array.from(String(value), (digit) => digit.charCodeAt(0)));
const COMMA = 0x2c;

/**
 * Bytes as the text of a JSON array of integers, without its brackets ("137,80,78,…"),
 * itself as ASCII bytes. The interface wants PNGs this way in JSON; join() on the main
 * thread took 180 ms for 5 MB, so the drawing workers write it, in one allocation.
 */
export function byteListJson(bytes: Uint8Array): Uint8Array {
  let length = Math.max(0, bytes.length - 1);
  for (let i = 0; i < bytes.length; i++) length += DIGITS[bytes[i]].length;
  const text = new Uint8Array(length);
  let at = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (i > 0) text[at++] = COMMA;
    const digits = DIGITS[bytes[i]];
    text.set(digits, at);
    at += digits.length;
  }
  return text;
}
