/** The bounds a filter must keep, and how its errors are worded. */
import { BadRequestError } from '../errors.ts';

/** The longest filter text, in UTF-16 code units (what `String.length` counts). */
export const MAX_FILTER_LENGTH = 4096;
/** How deep parentheses and NOTs may nest. */
export const MAX_FILTER_DEPTH = 64;
/** The most values one `IN (…)` list may hold. */
export const MAX_IN_LIST_ITEMS = 1000;
/** The longest `LIKE` pattern, in characters, after `''` is read as one quote. */
export const MAX_LIKE_PATTERN_LENGTH = 256;

/** Error messages never quote more than this many characters of the filter. */
const MAX_QUOTE = 60;

/** A piece of the filter as a message may quote it: cut short when long. */
export function clip(text: string): string {
  return text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE - 1)}…` : text;
}

/** The 400 for a filter that cannot be used; `problem` says what is wrong and where. */
export function invalidFilter(problem: string): BadRequestError {
  return new BadRequestError(`Invalid filter: ${problem}`);
}
