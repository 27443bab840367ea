import { describe, expect, it } from 'vitest';
import { compileFilter, MAX_FILTER_DEPTH, MAX_FILTER_LENGTH, MAX_IN_LIST_ITEMS, MAX_LIKE_PATTERN_LENGTH } from '../../src/filter/index.ts';
import { compileLike } from '../../src/filter/like.ts';
import { errorOf, FIELDS, matches } from './helpers.ts';

describe('limits', () => {
  it('has the documented values', () => {
    expect([MAX_FILTER_LENGTH, MAX_FILTER_DEPTH, MAX_IN_LIST_ITEMS, MAX_LIKE_PATTERN_LENGTH]).toEqual([4096, 64, 1000, 256]);
  });

  it('takes a filter of 4096 characters and refuses one longer', () => {
    const base = "NAME = 'Paris'";
    const atLimit = base + ' '.repeat(MAX_FILTER_LENGTH - base.length);
    expect(matches(atLimit, { NAME: 'Paris' })).toBe(true);
    expect(errorOf(atLimit + ' ')).toBe('Invalid filter: the filter is 4097 characters long; the most is 4096');
    expect(errorOf('x'.repeat(5000))).toBe('Invalid filter: the filter is 5000 characters long; the most is 4096');
  });

  it('takes 64 levels of parentheses and NOTs, and refuses 65', () => {
    const parens = (n: number) => `${'('.repeat(n)}POP = 1${')'.repeat(n)}`;
    expect(matches(parens(64), { POP: 1 })).toBe(true);
    expect(errorOf(parens(65))).toBe('Invalid filter: the filter nests parentheses and NOTs more than 64 deep (at position 65)');
    const nots = (n: number) => `${'NOT '.repeat(n)}POP = 1`;
    expect(matches(nots(64), { POP: 1 })).toBe(true);
    expect(matches(nots(63), { POP: 1 })).toBe(false);
    expect(errorOf(nots(65))).toBe('Invalid filter: the filter nests parentheses and NOTs more than 64 deep (at position 257)');
    // NOT and parentheses count together
    expect(errorOf(`${'NOT ('.repeat(33)}POP = 1${')'.repeat(33)}`)).toMatch(/more than 64 deep \(at position 161\)$/);
    // siblings do not add up: only nesting counts
    const siblings = Array.from({ length: 100 }, () => '(((POP = 1)))').join(' OR ');
    expect(matches(siblings, { POP: 1 })).toBe(true);
  });

  it('takes an IN list of 1000 values and refuses 1001', () => {
    const list = (n: number) => `POP IN (${Array.from({ length: n }, (_, i) => i).join(',')})`;
    expect(list(1000).length).toBeLessThanOrEqual(MAX_FILTER_LENGTH);
    expect(matches(list(1000), { POP: 999 })).toBe(true);
    expect(matches(list(1000), { POP: 1000 })).toBe(false);
    expect(errorOf(list(1001))).toBe('Invalid filter: the IN list at position 5 has more than 1000 items');
  });

  it('takes a LIKE pattern of 256 characters and refuses 257', () => {
    const pattern = '%'.repeat(255) + 'a';
    expect(matches(`NAME LIKE '${pattern}'`, { NAME: 'banana' })).toBe(true);
    expect(errorOf(`NAME LIKE '${pattern}b'`)).toBe('Invalid filter: the LIKE pattern at position 11 is 257 characters long; the most is 256');
    // '' counts as one character
    expect(matches(`NAME LIKE '${"''".repeat(256)}'`, { NAME: "'".repeat(256) })).toBe(true);
  });
});

describe('hostile filters', () => {
  it('refuses 4096 nested parentheses with the depth limit, not a stack overflow', () => {
    const text = `${'('.repeat(2044)}a=1${')'.repeat(2049)}`.slice(0, 4096);
    expect(text.length).toBe(4096);
    expect(errorOf(text)).toBe('Invalid filter: the filter nests parentheses and NOTs more than 64 deep (at position 65)');
    expect(errorOf('('.repeat(4096))).toMatch(/more than 64 deep/);
    expect(errorOf('NOT '.repeat(1024))).toMatch(/more than 64 deep/);
  });

  it('refuses a 4096-character LIKE pattern by its length limit', () => {
    const pattern = '%_'.repeat(2046);
    const text = `NAME LIKE '${pattern}'`;
    expect(text.length).toBe(4104);
    expect(errorOf(`NAME LIKE '${pattern.slice(0, 4096 - 12)}'`)).toMatch(/^Invalid filter: the LIKE pattern at position 11 is 4084 characters long; the most is 256$/);
  });

  it('matches a 4096-character %_%_… pattern against a long text without blowing up', () => {
    const match = compileLike('%_'.repeat(2048));
    const long = 'ab'.repeat(50_000);
    expect(match(long)).toBe(true);
    expect(match('a'.repeat(2047))).toBe(false);
    expect(match('a'.repeat(2048))).toBe(true);
    // and patterns that make naive backtracking exponential
    const evil = compileLike(`${'%a'.repeat(2000)}b`);
    expect(evil('a'.repeat(20_000))).toBe(false);
    const evilUnderscore = compileLike(`${'%_a'.repeat(1000)}%b`);
    expect(evilUnderscore('a'.repeat(5_000))).toBe(false);
  });

  it('matches the longest legal hostile pattern against long values', () => {
    const filter = compileFilter(`NAME LIKE '${'%_'.repeat(128)}' AND CODE LIKE '${'%a'.repeat(127)}%b'`, FIELDS);
    expect(filter.matches({ NAME: 'x'.repeat(100_000), CODE: 'a'.repeat(100_000) })).toBe(false);
    expect(filter.matches({ NAME: 'x'.repeat(100_000), CODE: 'a'.repeat(100_000) + 'b' })).toBe(true);
  });

  it('reads a text literal of 4000 quotes', () => {
    // 4000 quotes: the opening one, 1999 doubled ones (the value), the closing one
    const literal = "'".repeat(4000);
    expect(matches(`NAME = ${literal}`, { NAME: "'".repeat(1999) })).toBe(true);
    expect(matches(`NAME = ${literal}`, { NAME: "'".repeat(1998) })).toBe(false);
    expect(compileFilter(`${literal} = NAME`, FIELDS).fields).toEqual(['NAME']);
    // one more and the last doubled quote leaves the text open
    expect(errorOf(`NAME = ${"'".repeat(4001)}`)).toBe("Invalid filter: the text that starts at position 8 has no closing '");
  });

  it('handles long runs of tokens', () => {
    const many = Array.from({ length: 300 }, (_, i) => `POP<>${i}`).join(' AND ');
    expect(many.length).toBeLessThanOrEqual(MAX_FILTER_LENGTH);
    expect(matches(many, { POP: 300 })).toBe(true);
    expect(matches(many, { POP: 299 })).toBe(false);
    const ors = Array.from({ length: 400 }, () => 'FALSE').join(' OR ');
    expect(matches(ors, {})).toBe(false);
    expect(errorOf(`NAME = ${'x'.repeat(4000)}`)).toMatch(/^Invalid filter: unknown property 'x{59}…' at position 8/);
    expect(errorOf(`${'1'.repeat(4000)}.5`)).toMatch(/^Invalid filter: the number '1{59}…' at position 1 is too large$/);
    expect(errorOf(`"${'"'.repeat(4000)}`)).toMatch(/^Invalid filter: (expected|empty|the property name)/);
  });
});
