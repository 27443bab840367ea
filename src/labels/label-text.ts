/**
 * A label's text as it is drawn: a `.dbf` value may be 254 characters of anything, and a
 * label that long would cover the picture and cost its measuring; cut to a readable length.
 */

/** Characters (code points) of a label, the ellipsis included, before it is cut. */
export const MAX_LABEL_CHARACTERS = 64;

/** The text trimmed, and cut with an ellipsis past MAX_LABEL_CHARACTERS; '' when nothing is left to draw. */
export function labelText(text: string | null | undefined): string {
  if (!text) return '';
  // Only the head is split into code points: the rest is never looked at.
  const characters = Array.from(text.trim().slice(0, 2 * MAX_LABEL_CHARACTERS + 2));
  if (characters.length <= MAX_LABEL_CHARACTERS) return characters.join('');
  return characters.slice(0, MAX_LABEL_CHARACTERS - 1).join('').trimEnd() + '…';
}

/** The halo's width, in CSS pixels, for text of `size` CSS pixels: wide enough to read on any fill, thin enough not to blot. */
export function haloWidth(size: number): number {
  return size / 6;
}
