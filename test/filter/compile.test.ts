import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../src/filter/index.ts';
import { FIELDS, matches, matching, type Row } from './helpers.ts';

const PARIS: Row = { NAME: 'Paris', POP: 2_100_000, AREA: 105.4, CODE: 'FR-75', FLAG: true, BORN: '1950-06-15', 'my field': 'x y', DATE: '2024-01-31', 'a.b_1': 7 };
const LYON: Row = { NAME: 'Lyon', POP: 520_000, AREA: 47.87, CODE: 'FR-69', FLAG: false, BORN: '1980-01-01', 'my field': null, DATE: null, 'a.b_1': -1 };
const NOWHERE: Row = { NAME: null, POP: null, AREA: null, CODE: null, FLAG: null, BORN: null };
const ROWS = [PARIS, LYON, NOWHERE];

describe('comparisons', () => {
  it.each([
    ['POP = 520000', [1]],
    ['POP <> 520000', [0]],
    ['POP < 520000', []],
    ['POP <= 520000', [1]],
    ['POP > 520000', [0]],
    ['POP >= 520000', [0, 1]],
    ["NAME = 'Paris'", [0]],
    ["NAME <> 'Paris'", [1]],
    ["NAME < 'Paris'", [1]],
    ["NAME > 'Lyon'", [0]],
    ["NAME >= 'Lyon'", [0, 1]],
    ["NAME <= 'Lyon'", [1]],
    ['FLAG = TRUE', [0]],
    ['FLAG <> TRUE', [1]],
    ['FLAG = false', [1]],
  ])('%s', (filter, expected) => {
    expect(matching(filter, ROWS)).toEqual(expected);
  });

  it('takes literals on either side, and two literals', () => {
    expect(matching('520000 < POP', ROWS)).toEqual([0]);
    expect(matching("'Paris' = NAME", ROWS)).toEqual([0]);
    expect(matching('TRUE = FLAG', ROWS)).toEqual([0]);
    expect(matching('1 = 1', ROWS)).toEqual([0, 1, 2]);
    expect(matching('1 > 2', ROWS)).toEqual([]);
    expect(matching("'a' < 'b'", ROWS)).toEqual([0, 1, 2]);
  });

  it('compares property with property', () => {
    const fields = [
      { name: 'A', type: 'number' as const },
      { name: 'B', type: 'number' as const },
      { name: 'S', type: 'string' as const },
      { name: 'T', type: 'string' as const },
    ];
    const rows = [{ A: 1, B: 2, S: 'x', T: 'x' }, { A: 2, B: 2, S: 'x', T: 'y' }, { A: 3, B: null, S: null, T: 'y' }];
    expect(matching('A < B', rows, fields)).toEqual([0]);
    expect(matching('A = B', rows, fields)).toEqual([1]);
    expect(matching('A >= B', rows, fields)).toEqual([1]);
    expect(matching('S = T', rows, fields)).toEqual([0]);
    expect(matching('S <> T', rows, fields)).toEqual([1]);
  });

  it('compares strings exactly: case, accents and spaces count', () => {
    expect(matches("NAME = 'paris'", PARIS)).toBe(false);
    expect(matches("NAME = 'Paris '", PARIS)).toBe(false);
    expect(matches("NAME = 'Zürich'", { NAME: 'Zurich' })).toBe(false);
    expect(matches("NAME = 'Zürich'", { NAME: 'Zürich' })).toBe(true);
    // ordered by UTF-16 code units: upper case before lower case
    expect(matches("NAME < 'a'", { NAME: 'Z' })).toBe(true);
  });

  it('compares numbers numerically, not as text', () => {
    expect(matches('POP > 9', { POP: 10 })).toBe(true);
    expect(matches('AREA = 105.4', PARIS)).toBe(true);
    expect(matches('AREA < 105.41', PARIS)).toBe(true);
    expect(matches('POP = 0', { POP: -0 })).toBe(true);
  });
});

describe('numbers in all their forms', () => {
  it.each([
    ['POP = 42', 42, true],
    ['POP = +42', 42, true],
    ['POP = -42', -42, true],
    ['POP=-42', -42, true],
    ['POP = 42.', 42, true],
    ['POP = 42.0', 42, true],
    ['POP = .5', 0.5, true],
    ['POP = -.5', -0.5, true],
    ['POP = 0.5', 0.5, true],
    ['POP = 1e3', 1000, true],
    ['POP = 1E3', 1000, true],
    ['POP = 1e+3', 1000, true],
    ['POP = 2.5e-3', 0.0025, true],
    ['POP = -2.5E-3', -0.0025, true],
    ['POP = .5e1', 5, true],
    ['POP = 007', 7, true],
    ['POP = 1e3', 1001, false],
    ['POP>-1', 0, true],
    ['POP >= -1.5e0', -1.5, true],
  ])('%s with POP %s: %s', (filter, pop, expected) => {
    expect(matches(filter, { POP: pop })).toBe(expected);
  });

  it('compares a number field with a big or tiny number', () => {
    expect(matches('POP < 1e308', { POP: 1 })).toBe(true);
    expect(matches('POP > 1e-300', { POP: 0 })).toBe(false);
  });
});

describe('LIKE', () => {
  it('matches patterns against text fields', () => {
    expect(matching("NAME LIKE 'P%'", ROWS)).toEqual([0]);
    expect(matching("NAME LIKE '%o%'", ROWS)).toEqual([1]);
    expect(matching("NAME NOT LIKE 'P%'", ROWS)).toEqual([1]);
    expect(matching("NAME LIKE '_yon'", ROWS)).toEqual([1]);
    expect(matching("CODE LIKE 'FR-__'", ROWS)).toEqual([0, 1]);
    expect(matching("'Paris' LIKE 'Par%'", ROWS)).toEqual([0, 1, 2]);
  });

  it('is anchored and case-sensitive', () => {
    expect(matches("NAME LIKE 'ari'", PARIS)).toBe(false);
    expect(matches("NAME LIKE 'Pari'", PARIS)).toBe(false);
    expect(matches("NAME LIKE 'aris'", PARIS)).toBe(false);
    expect(matches("NAME LIKE 'paris'", PARIS)).toBe(false);
    expect(matches("NAME LIKE 'Paris'", PARIS)).toBe(true);
  });

  it('takes escapes and quotes in the pattern', () => {
    expect(matches("CODE LIKE '100\\%'", { CODE: '100%' })).toBe(true);
    expect(matches("CODE LIKE '100\\%'", { CODE: '1000' })).toBe(false);
    expect(matches("CODE LIKE 'a\\_b'", { CODE: 'a_b' })).toBe(true);
    expect(matches("CODE LIKE 'a\\_b'", { CODE: 'axb' })).toBe(false);
    expect(matches("CODE LIKE 'a\\\\b'", { CODE: 'a\\b' })).toBe(true);
    expect(matches("CODE LIKE 'l''%'", { CODE: "l'Isle" })).toBe(true);
  });

  it('matches an empty pattern only to the empty text, and % to any text', () => {
    expect(matches("CODE LIKE ''", { CODE: '' })).toBe(true);
    expect(matches("CODE LIKE ''", { CODE: 'a' })).toBe(false);
    expect(matches("CODE LIKE '%'", { CODE: '' })).toBe(true);
    expect(matches("CODE LIKE '%'", { CODE: 'anything' })).toBe(true);
    expect(matches("CODE LIKE '%'", { CODE: null })).toBe(false);
    expect(matches("CODE NOT LIKE '%'", { CODE: null })).toBe(false);
  });

  it('ILIKE (what GDAL 3.6 sends for -where … ILIKE) matches whatever the case, anchored as LIKE', () => {
    expect(matching("NAME ILIKE 'paris'", ROWS)).toEqual([0]);
    expect(matching("NAME ILIKE 'P%S'", ROWS)).toEqual([0]);
    expect(matching("NAME ilike '_YON'", ROWS)).toEqual([1]);
    expect(matching("NAME NOT ILIKE 'p%'", ROWS)).toEqual([1]);
    expect(matching("NAME ILIKE 'ari'", ROWS)).toEqual([]);
    expect(matches("CODE ILIKE 'ÉCOLE\\_%'", { CODE: 'école_1' })).toBe(true);
    expect(() => compileFilter("POP ILIKE '5'", FIELDS)).toThrow(/ILIKE at position 5 takes text/);
  });
});

describe('IN', () => {
  it('tests membership', () => {
    expect(matching("NAME IN ('Paris', 'Berlin')", ROWS)).toEqual([0]);
    expect(matching("NAME NOT IN ('Paris', 'Berlin')", ROWS)).toEqual([1]);
    expect(matching('POP IN (520000)', ROWS)).toEqual([1]);
    expect(matching('POP in (1, 2, 2100000)', ROWS)).toEqual([0]);
    expect(matching('FLAG IN (TRUE)', ROWS)).toEqual([0]);
    expect(matching("BORN IN (DATE('1980-01-01'), DATE('1990-01-01'))", ROWS)).toEqual([1]);
  });

  it('takes properties in the list, with SQL semantics for their nulls', () => {
    const fields = [
      { name: 'A', type: 'number' as const },
      { name: 'B', type: 'number' as const },
    ];
    // A IN (1, B): TRUE when A = 1 or A = B; UNKNOWN (so no match either way) when B is null and A <> 1
    const rows = [{ A: 1, B: null }, { A: 2, B: 2 }, { A: 3, B: null }, { A: 3, B: 4 }];
    expect(matching('A IN (1, B)', rows, fields)).toEqual([0, 1]);
    expect(matching('A NOT IN (1, B)', rows, fields)).toEqual([3]);
  });
});

describe('BETWEEN', () => {
  it('includes both ends', () => {
    expect(matching('POP BETWEEN 520000 AND 2100000', ROWS)).toEqual([0, 1]);
    expect(matching('POP BETWEEN 520001 AND 2099999', ROWS)).toEqual([]);
    expect(matching('POP NOT BETWEEN 520001 AND 3000000', ROWS)).toEqual([1]);
    expect(matching("NAME BETWEEN 'L' AND 'M'", ROWS)).toEqual([1]);
    expect(matching("BORN BETWEEN DATE('1950-06-15') AND DATE('1970-01-01')", ROWS)).toEqual([0]);
  });

  it('binds its AND before the boolean AND', () => {
    expect(matching("POP BETWEEN 1 AND 600000 AND NAME = 'Lyon'", ROWS)).toEqual([1]);
    expect(matching("NAME = 'Paris' OR POP BETWEEN 1 AND 600000 AND FLAG = FALSE", ROWS)).toEqual([0, 1]);
  });

  it('is UNKNOWN with a null bound unless the other bound already fails', () => {
    const fields = [
      { name: 'X', type: 'number' as const },
      { name: 'LO', type: 'number' as const },
      { name: 'HI', type: 'number' as const },
    ];
    const rows = [{ X: 5, LO: null, HI: 10 }, { X: 5, LO: null, HI: 1 }, { X: 5, LO: 1, HI: 10 }];
    expect(matching('X BETWEEN LO AND HI', rows, fields)).toEqual([2]);
    // NOT (UNKNOWN AND FALSE) = NOT FALSE = TRUE for the second row; the first stays UNKNOWN
    expect(matching('X NOT BETWEEN LO AND HI', rows, fields)).toEqual([1]);
  });
});

describe('IS NULL', () => {
  it('finds nulls and missing keys', () => {
    expect(matching('NAME IS NULL', ROWS)).toEqual([2]);
    expect(matching('NAME IS NOT NULL', ROWS)).toEqual([0, 1]);
    expect(matching('"my field" IS NULL', ROWS)).toEqual([1, 2]);
    expect(matches('POP IS NULL', {})).toBe(true);
    expect(matches('BORN is not null', { BORN: '2020-02-02' })).toBe(true);
  });

  it('is never UNKNOWN, so NOT works on it', () => {
    expect(matching('NOT NAME IS NULL', ROWS)).toEqual([0, 1]);
    expect(matching('NOT POP IS NOT NULL', ROWS)).toEqual([2]);
  });

  it('counts a value of the wrong type, or an impossible date, as null', () => {
    expect(matches('POP IS NULL', { POP: 'many' })).toBe(true);
    expect(matches('POP IS NULL', { POP: Number.NaN })).toBe(true);
    expect(matches('NAME IS NULL', { NAME: 5 })).toBe(true);
    expect(matches('FLAG IS NULL', { FLAG: 'T' })).toBe(true);
    expect(matches('BORN IS NULL', { BORN: '2023-02-29' })).toBe(true);
    expect(matches('BORN IS NULL', { BORN: '20230101' })).toBe(true);
  });

  it('does not read inherited keys of the row object', () => {
    const fields = [
      { name: 'constructor', type: 'string' as const },
      { name: 'toString', type: 'number' as const },
      { name: '__proto__', type: 'string' as const },
    ];
    expect(matches('constructor IS NULL AND toString IS NULL AND "__proto__" IS NULL', {}, fields)).toBe(true);
  });
});

describe('AND, OR, NOT and parentheses', () => {
  it('binds NOT tighter than AND, and AND tighter than OR', () => {
    // a OR b AND c = a OR (b AND c)
    expect(matching("NAME = 'Paris' OR NAME = 'Lyon' AND POP > 1000000", ROWS)).toEqual([0]);
    expect(matching("(NAME = 'Paris' OR NAME = 'Lyon') AND POP < 1000000", ROWS)).toEqual([1]);
    // NOT a AND b = (NOT a) AND b
    expect(matching("NOT NAME = 'Paris' AND POP > 0", ROWS)).toEqual([1]);
    expect(matching("NOT (NAME = 'Paris' AND POP > 0)", ROWS)).toEqual([1]);
    // NOT a OR b = (NOT a) OR b
    expect(matching("NOT NAME = 'Lyon' OR NAME = 'Lyon'", ROWS)).toEqual([0, 1]);
    expect(matching("NOT (NAME = 'Lyon' OR NAME = 'Lyon')", ROWS)).toEqual([0]);
  });

  it('takes redundant parentheses and double NOT', () => {
    expect(matching("((((NAME = 'Paris'))))", ROWS)).toEqual([0]);
    expect(matching("NOT NOT NAME = 'Paris'", ROWS)).toEqual([0]);
    expect(matching("NOT NOT NOT NAME = 'Paris'", ROWS)).toEqual([1]);
    expect(matching("NOT(NAME='Paris')", ROWS)).toEqual([1]);
  });

  it('chains many ANDs and ORs', () => {
    expect(matching('POP > 1 AND POP > 2 AND POP > 3 AND POP > 600000', ROWS)).toEqual([0]);
    expect(matching('POP = 1 OR POP = 2 OR POP = 3 OR POP = 520000', ROWS)).toEqual([1]);
  });

  it('takes TRUE and FALSE as whole filters', () => {
    expect(matching('TRUE', ROWS)).toEqual([0, 1, 2]);
    expect(matching('FALSE', ROWS)).toEqual([]);
    expect(matching('NOT FALSE AND (TRUE)', ROWS)).toEqual([0, 1, 2]);
    expect(compileFilter('true', FIELDS).fields).toEqual([]);
  });
});

describe('three-valued logic', () => {
  const UNKNOWN = 'POP > 0'; // with POP null
  const TRUE_ = "CODE = 'x'";
  const FALSE_ = "CODE = 'y'";
  const row = { POP: null, CODE: 'x' };
  it.each([
    [UNKNOWN, false],
    [`NOT ${UNKNOWN}`, false],
    [`NOT NOT ${UNKNOWN}`, false],
    [`${UNKNOWN} AND ${TRUE_}`, false],
    [`NOT (${UNKNOWN} AND ${TRUE_})`, false],
    [`${UNKNOWN} AND ${FALSE_}`, false],
    [`NOT (${UNKNOWN} AND ${FALSE_})`, true],
    [`${UNKNOWN} OR ${TRUE_}`, true],
    [`${TRUE_} OR ${UNKNOWN}`, true],
    [`${UNKNOWN} OR ${FALSE_}`, false],
    [`NOT (${UNKNOWN} OR ${FALSE_})`, false],
    [`NOT (${FALSE_} OR ${FALSE_})`, true],
    [`POP <> 5`, false],
    [`NOT POP = 5`, false],
    [`POP IN (1, 2)`, false],
    [`POP NOT IN (1, 2)`, false],
    [`POP BETWEEN 1 AND 2`, false],
    [`POP NOT BETWEEN 1 AND 2`, false],
    [`NAME LIKE '%'`, false],
    [`NAME NOT LIKE 'a'`, false],
    [`POP IS NULL AND NOT POP > 1`, false],
    [`POP IS NULL AND (NOT POP > 1 OR TRUE)`, true],
  ])('%s: %s', (filter, expected) => {
    expect(matches(filter, row)).toBe(expected);
  });
});

describe('names and keywords', () => {
  it('matches property names case-insensitively and reports the .dbf spelling', () => {
    expect(matches("name = 'Paris'", PARIS)).toBe(true);
    expect(matches("Name = 'Paris' and pOp > 1", PARIS)).toBe(true);
    expect(compileFilter("name = 'x' OR NAME = 'y' OR Pop > 1 OR nAmE IS NULL", FIELDS).fields).toEqual(['NAME', 'POP']);
  });

  it('prefers the exact spelling when two fields differ only in case', () => {
    const fields = [
      { name: 'id', type: 'number' as const },
      { name: 'ID', type: 'string' as const },
    ];
    expect(compileFilter('ID IS NULL', fields).fields).toEqual(['ID']);
    expect(compileFilter('id IS NULL', fields).fields).toEqual(['id']);
    expect(compileFilter('Id IS NULL', fields).fields).toEqual(['id']);
  });

  it('lists each field read once, in order of first use', () => {
    expect(compileFilter("POP > 1 AND (NAME LIKE 'a%' OR pop < 0) AND BORN IS NULL", FIELDS).fields).toEqual(['POP', 'NAME', 'BORN']);
    expect(compileFilter('1 = 1', FIELDS).fields).toEqual([]);
  });

  it('takes keywords in any case', () => {
    expect(matching("name like 'P%' and not pop between 1 and 2 or code in ('x') or flag is null", ROWS)).toEqual([0, 2]);
    expect(matching("NaMe NoT lIkE 'P%' AnD bOrN > dAtE('1970-01-01')", ROWS)).toEqual([1]);
    expect(matching("BORN < Timestamp('1960-01-01T00:00:00Z')", ROWS)).toEqual([0]);
  });

  it('takes quoted names, with spaces, keywords and doubled quotes', () => {
    const fields = [
      { name: 'my field', type: 'string' as const },
      { name: 'AND', type: 'number' as const },
      { name: 'say "hi"', type: 'string' as const },
    ];
    expect(matches('"my field" = \'x y\'', { 'my field': 'x y' }, fields)).toBe(true);
    expect(matches('"MY FIELD" = \'x y\'', { 'my field': 'x y' }, fields)).toBe(true);
    expect(matches('"and" > 1', { AND: 2 }, fields)).toBe(true);
    expect(matches('"say ""hi""" IS NOT NULL', { 'say "hi"': 'hello' }, fields)).toBe(true);
  });

  it('takes bare names with digits, dots and underscores', () => {
    expect(matches('a.b_1 = 7', PARIS)).toBe(true);
    expect(matches('A.B_1 < 0', LYON)).toBe(true);
    const fields = [{ name: '_X9', type: 'number' as const }, { name: 'Straße', type: 'string' as const }];
    expect(matches('_x9 = 1', { _X9: 1 }, fields)).toBe(true);
    expect(matches("straße = 'a'", { Straße: 'a' }, fields)).toBe(true);
  });

  it('reads a bare DATE or TIMESTAMP as a property name', () => {
    expect(matches("DATE = DATE('2024-01-31')", PARIS)).toBe(true);
    expect(matches("date > date('2024-01-30')", PARIS)).toBe(true);
    expect(compileFilter("DATE IS NULL AND \"date\" = DATE('2024-01-01')", FIELDS).fields).toEqual(['DATE']);
  });

  it('takes any whitespace between tokens, and none where it is not needed', () => {
    expect(matches("\tNAME\n=\r\n'Paris'  ", PARIS)).toBe(true);
    expect(matches("NAME='Paris'AND(POP>=1)", PARIS)).toBe(true);
  });
});

describe('text literals', () => {
  it("reads '' as a quote", () => {
    expect(matches("NAME = 'l''Isle'", { NAME: "l'Isle" })).toBe(true);
    expect(matches("NAME = ''''", { NAME: "'" })).toBe(true);
    expect(matches("NAME = ''''''", { NAME: "''" })).toBe(true);
    expect(matches("NAME = ''", { NAME: '' })).toBe(true);
    expect(matches("NAME = 'a\"b'", { NAME: 'a"b' })).toBe(true);
  });

  it('keeps backslashes and unicode as they are outside LIKE', () => {
    expect(matches("NAME = 'a\\%'", { NAME: 'a\\%' })).toBe(true);
    expect(matches("NAME = '東京 😀'", { NAME: '東京 😀' })).toBe(true);
  });
});

describe('dates and timestamps', () => {
  it('compares date fields with DATE literals', () => {
    expect(matching("BORN = DATE('1950-06-15')", ROWS)).toEqual([0]);
    expect(matching("BORN < DATE('1980-01-01')", ROWS)).toEqual([0]);
    expect(matching("BORN <= DATE('1980-01-01')", ROWS)).toEqual([0, 1]);
    expect(matching("BORN <> DATE('1980-01-01')", ROWS)).toEqual([0]);
    expect(matching("DATE('1980-01-01') < BORN", ROWS)).toEqual([]);
  });

  it('compares a date field with a TIMESTAMP as the instant 00:00Z of its day', () => {
    const row = { BORN: '2024-01-31' };
    expect(matches("BORN = TIMESTAMP('2024-01-31T00:00:00Z')", row)).toBe(true);
    expect(matches("BORN = TIMESTAMP('2024-01-31T10:00:00Z')", row)).toBe(false);
    expect(matches("BORN < TIMESTAMP('2024-01-31T10:00:00Z')", row)).toBe(true);
    expect(matches("BORN < TIMESTAMP('2024-01-31T00:00:00.001Z')", row)).toBe(true);
    expect(matches("BORN > TIMESTAMP('2024-01-30T23:59:59.999Z')", row)).toBe(true);
    expect(matches("BORN = TIMESTAMP('2024-01-31t00:00:00.000z')", row)).toBe(true);
    expect(matches("BORN BETWEEN TIMESTAMP('2024-01-30T12:00:00Z') AND DATE('2024-01-31')", row)).toBe(true);
  });

  it('handles leap days, old and far dates', () => {
    expect(matches("BORN = DATE('2024-02-29')", { BORN: '2024-02-29' })).toBe(true);
    expect(matches("BORN = DATE('2000-02-29')", { BORN: '2000-02-29' })).toBe(true);
    expect(matches("BORN < DATE('1970-01-01')", { BORN: '0001-01-01' })).toBe(true);
    expect(matches("BORN < DATE('0099-12-31')", { BORN: '0099-12-30' })).toBe(true);
    expect(matches("BORN > DATE('9999-12-30')", { BORN: '9999-12-31' })).toBe(true);
    expect(matches("BORN > DATE('1899-12-31')", { BORN: '1900-03-01' })).toBe(true);
  });

  it('compares date fields with each other', () => {
    const fields = [
      { name: 'START', type: 'date' as const },
      { name: 'END', type: 'date' as const },
    ];
    expect(matching('START < "END"', [{ START: '2020-01-01', END: '2021-01-01' }, { START: '2022-01-01', END: '2021-01-01' }], fields)).toEqual([0]);
  });

  it('compares two instant literals', () => {
    expect(matches("DATE('2024-01-01') < TIMESTAMP('2024-01-01T00:00:01Z')", {})).toBe(true);
  });
});
