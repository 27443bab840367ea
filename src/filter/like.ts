/**
 * CQL2 LIKE patterns: `%` matches any run of characters (none included), `_` exactly one
 * character (a Unicode code point), `\` makes the next character literal; everything else
 * matches itself, case-sensitively. The whole value must match (the pattern is anchored).
 *
 * No regular expression is built from the pattern. It is cut at its `%`s into segments;
 * the first must match at the start, the last at the end, and each one between at its
 * leftmost place after the one before (leftmost is always safe, as anything a later
 * segment could use stays available). Time is at most value length × pattern length,
 * never exponential.
 */

/** One piece between `%`s: its characters, each a code point, or null for `_`. */
type Segment = (string | null)[];

/** A matcher for `pattern` (a trailing lone `\` stands for itself). */
export function compileLike(pattern: string): (value: string) => boolean {
  const segments = splitPattern(pattern);
  const anchoredBothEnds = segments.length === 1;
  if (segments.every((segment) => !segment.includes(null))) {
    // Only literal characters: native string search on UTF-16 code units.
    const texts = segments.map((segment) => segment.join(''));
    if (anchoredBothEnds) return (value) => value === texts[0];
    return (value) => matchTexts(value, texts);
  }
  return (value) => matchSegments(Array.from(value), segments);
}

function splitPattern(pattern: string): Segment[] {
  const segments: Segment[] = [];
  let current: Segment = [];
  const characters = Array.from(pattern);
  for (let i = 0; i < characters.length; i++) {
    const character = characters[i];
    if (character === '\\' && i + 1 < characters.length) current.push(characters[++i]);
    else if (character === '%') {
      segments.push(current);
      current = [];
    } else current.push(character === '_' ? null : character);
  }
  segments.push(current);
  return segments;
}

/** `texts` (two or more): the segments of a pattern without `_`. */
function matchTexts(value: string, texts: string[]): boolean {
  const first = texts[0];
  const last = texts[texts.length - 1];
  const end = value.length - last.length;
  if (end < first.length || !value.startsWith(first) || !value.endsWith(last)) return false;
  let at = first.length;
  for (let i = 1; i < texts.length - 1; i++) {
    const text = texts[i];
    if (text === '') continue;
    const found = value.indexOf(text, at);
    if (found < 0 || found + text.length > end) return false;
    at = found + text.length;
  }
  return true;
}

function matchSegments(value: string[], segments: Segment[]): boolean {
  const first = segments[0];
  if (segments.length === 1) return value.length === first.length && matchesAt(value, 0, first);
  const last = segments[segments.length - 1];
  const end = value.length - last.length;
  if (end < first.length || !matchesAt(value, 0, first) || !matchesAt(value, end, last)) return false;
  let at = first.length;
  for (let i = 1; i < segments.length - 1; i++) {
    const segment = segments[i];
    let found = at;
    while (found + segment.length <= end && !matchesAt(value, found, segment)) found++;
    if (found + segment.length > end) return false;
    at = found + segment.length;
  }
  return true;
}

function matchesAt(value: string[], at: number, segment: Segment): boolean {
  for (let i = 0; i < segment.length; i++) {
    const expected = segment[i];
    if (expected !== null && value[at + i] !== expected) return false;
  }
  return true;
}
