/**
 * The tokenizer of CQL2 text (OGC 21-065): one walk over the characters, no regular
 * expression over the filter text, so its time grows linearly with the text.
 */
import { clip, invalidFilter } from './limits.ts';

export type Keyword = 'AND' | 'OR' | 'NOT' | 'LIKE' | 'ILIKE' | 'IN' | 'BETWEEN' | 'IS' | 'NULL' | 'TRUE' | 'FALSE' | 'DATE' | 'TIMESTAMP';
export type ComparisonOperator = '=' | '<>' | '<' | '<=' | '>' | '>=';

const KEYWORDS: ReadonlySet<string> = new Set<Keyword>(['AND', 'OR', 'NOT', 'LIKE', 'ILIKE', 'IN', 'BETWEEN', 'IS', 'NULL', 'TRUE', 'FALSE', 'DATE', 'TIMESTAMP']);

export type Token =
  /** A bare word: a keyword (any case) or a property name. */
  | { kind: 'word'; text: string; keyword: Keyword | undefined; position: number }
  /** A property name in double quotes; `text` is the name, `""` read as one `"`. */
  | { kind: 'quoted-name'; text: string; position: number }
  /** A character literal in single quotes; `text` is its value, `''` read as one `'`. */
  | { kind: 'string'; text: string; position: number }
  /** A numeric literal; `text` as written (sign included). */
  | { kind: 'number'; text: string; value: number; position: number }
  | { kind: 'operator'; text: ComparisonOperator; position: number }
  | { kind: '(' | ')' | ','; text: string; position: number }
  /** After the last token; its position is one past the last character. */
  | { kind: 'end'; text: ''; position: number };

/** Splits `text` into tokens; positions count from 1. Throws the 400 on a character that starts no token. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const length = text.length;
  let at = 0;
  while (at < length) {
    const code = text.charCodeAt(at);
    const position = at + 1;
    if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) {
      at++;
    } else if (code === 0x28 || code === 0x29 || code === 0x2c) {
      tokens.push({ kind: text[at] as '(' | ')' | ',', text: text[at], position });
      at++;
    } else if (code === 0x3d) {
      tokens.push({ kind: 'operator', text: '=', position });
      at++;
    } else if (code === 0x3c || code === 0x3e) {
      const next = text[at + 1];
      const operator = (code === 0x3c && (next === '=' || next === '>')) || (code === 0x3e && next === '=') ? text[at] + next : text[at];
      tokens.push({ kind: 'operator', text: operator as ComparisonOperator, position });
      at += operator.length;
    } else if (code === 0x27) {
      at = readQuoted(text, at, "'", (value) => tokens.push({ kind: 'string', text: value, position }));
    } else if (code === 0x22) {
      at = readQuoted(text, at, '"', (value) => {
        if (value === '') throw invalidFilter(`empty property name "" at position ${position}`);
        tokens.push({ kind: 'quoted-name', text: value, position });
      });
    } else if (startsNumber(text, at)) {
      at = readNumber(text, at, tokens);
    } else if (isNameStart(text.codePointAt(at)!)) {
      let end = at + charLength(text, at);
      while (end < length && isNamePart(text.codePointAt(end)!)) end += charLength(text, end);
      const word = text.slice(at, end);
      const upper = asciiUpper(word);
      tokens.push({ kind: 'word', text: word, keyword: KEYWORDS.has(upper) ? (upper as Keyword) : undefined, position });
      at = end;
    } else if (code === 0x21 && text[at + 1] === '=') {
      throw invalidFilter(`unexpected '!=' at position ${position} (CQL2 writes 'not equal' as <>)`);
    } else {
      throw invalidFilter(`unexpected character ${showCharacter(text.codePointAt(at)!)} at position ${position}`);
    }
  }
  tokens.push({ kind: 'end', text: '', position: length + 1 });
  return tokens;
}

/**
 * Reads a literal or name that `quote` encloses (a doubled quote inside stands for one),
 * hands its value to `take`, and returns where the text goes on.
 */
function readQuoted(text: string, start: number, quote: string, take: (value: string) => void): number {
  const parts: string[] = [];
  let from = start + 1;
  for (;;) {
    const close = text.indexOf(quote, from);
    if (close < 0) {
      const what = quote === "'" ? 'text' : 'property name';
      throw invalidFilter(`the ${what} that starts at position ${start + 1} has no closing ${quote}`);
    }
    parts.push(text.slice(from, close));
    if (text[close + 1] === quote) {
      parts.push(quote);
      from = close + 2;
    } else {
      take(parts.join(''));
      return close + 1;
    }
  }
}

function startsNumber(text: string, at: number): boolean {
  let code = text.charCodeAt(at);
  if (code === 0x2b || code === 0x2d) code = text.charCodeAt(++at);
  return isDigit(code) || (code === 0x2e && isDigit(text.charCodeAt(at + 1)));
}

/** Reads `[+-] digits [. [digits]] | [+-] . digits`, then an optional `E [+-] digits`. */
function readNumber(text: string, start: number, tokens: Token[]): number {
  let at = start;
  if (text[at] === '+' || text[at] === '-') at++;
  while (isDigit(text.charCodeAt(at))) at++;
  if (text[at] === '.') {
    at++;
    while (isDigit(text.charCodeAt(at))) at++;
  }
  if (text[at] === 'e' || text[at] === 'E') {
    let exponent = at + 1;
    if (text[exponent] === '+' || text[exponent] === '-') exponent++;
    if (isDigit(text.charCodeAt(exponent))) {
      at = exponent;
      while (isDigit(text.charCodeAt(at))) at++;
    }
  }
  if (at < text.length && isNamePart(text.codePointAt(at)!)) {
    let end = at;
    while (end < text.length && isNamePart(text.codePointAt(end)!)) end += charLength(text, end);
    throw invalidFilter(`invalid number '${clip(text.slice(start, end))}' at position ${start + 1}`);
  }
  const written = text.slice(start, at);
  const value = Number(written);
  if (!Number.isFinite(value)) throw invalidFilter(`the number '${clip(written)}' at position ${start + 1} is too large`);
  tokens.push({ kind: 'number', text: written, value, position: start + 1 });
  return at;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

// Tested on one character at a time, never on the filter text.
const LETTER = /^\p{L}$/u;
const MARK = /^\p{M}$/u;
const SPACE = /^\s$/u;

/** A letter or `_` (CQL2's identifierStart, less the colon). */
function isNameStart(codePoint: number): boolean {
  if (codePoint < 0x80) return (codePoint >= 0x41 && codePoint <= 0x5a) || (codePoint >= 0x61 && codePoint <= 0x7a) || codePoint === 0x5f;
  return LETTER.test(String.fromCodePoint(codePoint));
}

/** A letter, `_`, a digit, `.` or a combining mark. */
function isNamePart(codePoint: number): boolean {
  if (codePoint < 0x80) return isNameStart(codePoint) || isDigit(codePoint) || codePoint === 0x2e;
  return isNameStart(codePoint) || MARK.test(String.fromCodePoint(codePoint));
}

function charLength(text: string, at: number): number {
  return text.codePointAt(at)! > 0xffff ? 2 : 1;
}

/** Upper case for ASCII letters only, so that no other letter can spell a keyword ('ın' is no IN). */
function asciiUpper(word: string): string {
  let upper = '';
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    upper += code >= 0x61 && code <= 0x7a ? String.fromCharCode(code - 0x20) : word[i];
  }
  return upper;
}

function showCharacter(codePoint: number): string {
  const character = String.fromCodePoint(codePoint);
  const printable = codePoint > 0x20 && !(codePoint >= 0x7f && codePoint <= 0x9f) && !(codePoint >= 0xd800 && codePoint <= 0xdfff) && !SPACE.test(character);
  return printable ? `'${character}'` : `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}
