import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../src/filter/index.ts';
import { errorOf, FIELDS } from './helpers.ts';

describe('syntax errors', () => {
  it.each([
    ['', 'Invalid filter: the filter is empty'],
    ['   \n\t', 'Invalid filter: the filter is empty'],
    ["(NAME = 'a' AND POP > 1", "Invalid filter: expected ')' at position 24 but found the end of the filter"],
    ["(NAME = 'a' POP > 1)", "Invalid filter: expected ')' at position 13 but found 'POP'"],
    ["NAME = 'a')", "Invalid filter: expected AND, OR or the end of the filter at position 11 but found ')'"],
    ["NAME = 'a' POP", "Invalid filter: expected AND, OR or the end of the filter at position 12 but found 'POP'"],
    ['NAME', "Invalid filter: expected =, <>, <, <=, >, >=, LIKE, IN, BETWEEN or IS after property 'NAME' at position 5 but found the end of the filter"],
    ["NAME 'a'", "Invalid filter: expected =, <>, <, <=, >, >=, LIKE, IN, BETWEEN or IS after property 'NAME' at position 6 but found 'a'"],
    ['5', 'Invalid filter: expected =, <>, <, <=, >, >=, LIKE, IN, BETWEEN or IS after 5 at position 2 but found the end of the filter'],
    ['NAME =', 'Invalid filter: expected a property name or a value at position 7 but found the end of the filter'],
    ['NAME = = 1', "Invalid filter: expected a property name or a value at position 8 but found '='"],
    ['AND = 1', "Invalid filter: expected a property name or a value at position 1 but found 'AND' (a property named like a keyword goes in double quotes)"],
    ['NAME = NULL', 'Invalid filter: NULL at position 8 is no value to compare with; test for it with IS NULL or IS NOT NULL'],
    ["NAME != 'a'", "Invalid filter: unexpected '!=' at position 6 (CQL2 writes 'not equal' as <>)"],
    ["NAME == 'a'", "Invalid filter: expected a property name or a value at position 7 but found '='"],
    ['POP > 1 && POP < 2', "Invalid filter: unexpected character '&' at position 9"],
    ['POP > 1;', "Invalid filter: unexpected character ';' at position 8"],
    ['POP > 1\u0000', 'Invalid filter: unexpected character U+0000 at position 8'],
    ['POP >\u00a01', 'Invalid filter: unexpected character U+00A0 at position 6'],
    ['POP > 1 \ud800', 'Invalid filter: unexpected character U+D800 at position 9'],
    ['POP - 1 > 0', "Invalid filter: unexpected character '-' at position 5"],
    ["NAME = 'abc", "Invalid filter: the text that starts at position 8 has no closing '"],
    ["NAME = 'it''s", "Invalid filter: the text that starts at position 8 has no closing '"],
    ['"NAME = 1', 'Invalid filter: the property name that starts at position 1 has no closing "'],
    ['"" = 1', 'Invalid filter: empty property name "" at position 1'],
    ['POP = 12abc', "Invalid filter: invalid number '12abc' at position 7"],
    ['POP = 1.2.3', "Invalid filter: invalid number '1.2.3' at position 7"],
    ['POP = 1e', "Invalid filter: invalid number '1e' at position 7"],
    ['POP = 1e999', "Invalid filter: the number '1e999' at position 7 is too large"],
    ['POP IS 5', "Invalid filter: expected NULL or NOT NULL at position 8 but found '5'"],
    ['POP IS NOT 5', "Invalid filter: expected NULL at position 12 but found '5'"],
    ['POP NOT 5', "Invalid filter: expected LIKE, ILIKE, IN or BETWEEN after NOT at position 9 but found '5'"],
    ['POP BETWEEN 1 OR 2', "Invalid filter: expected AND at position 15 but found 'OR'"],
    ['POP IN 1, 2', "Invalid filter: expected '(' after IN at position 8 but found '1'"],
    ['POP IN ()', "Invalid filter: expected a property name or a value at position 9 but found ')'"],
    ['POP IN (1, 2', "Invalid filter: expected ',' or ')' at position 13 but found the end of the filter"],
    ['POP IN (1 2)', "Invalid filter: expected ',' or ')' at position 11 but found '2'"],
    ['NAME LIKE NAME', "Invalid filter: expected a pattern in single quotes after LIKE at position 11 but found 'NAME'"],
    ["NAME LIKE 'a\\'", 'Invalid filter: the LIKE pattern at position 11 ends with a lone escape character \\'],
    ["CASEI(NAME) = 'a'", "Invalid filter: unsupported function 'CASEI' at position 1"],
    ["S_INTERSECTS(geom, POINT(1 2))", "Invalid filter: unsupported function 'S_INTERSECTS' at position 1"],
    ["BORN = DATE('2024-02-30')", "Invalid filter: invalid date '2024-02-30' at position 13 (expected YYYY-MM-DD)"],
    ["BORN = DATE('2024-1-5')", "Invalid filter: invalid date '2024-1-5' at position 13 (expected YYYY-MM-DD)"],
    ["BORN = DATE(2024)", "Invalid filter: expected 'YYYY-MM-DD' in single quotes after DATE( at position 13 but found '2024'"],
    ["BORN = DATE('2024-01-01'", "Invalid filter: expected ')' at position 25 but found the end of the filter"],
    ["BORN = TIMESTAMP('2024-01-01')", "Invalid filter: invalid timestamp '2024-01-01' at position 18 (expected YYYY-MM-DDTHH:MM:SSZ)"],
    ["BORN = TIMESTAMP('2024-01-01T24:00:00Z')", "Invalid filter: invalid timestamp '2024-01-01T24:00:00Z' at position 18 (expected YYYY-MM-DDTHH:MM:SSZ)"],
    ["BORN = TIMESTAMP('2024-01-01T10:00:00+01:00')", "Invalid filter: invalid timestamp '2024-01-01T10:00:00+01:00' at position 18 (expected YYYY-MM-DDTHH:MM:SSZ)"],
    ["BORN = TIMESTAMP('2024-01-01T10:00:00.Z')", "Invalid filter: invalid timestamp '2024-01-01T10:00:00.Z' at position 18 (expected YYYY-MM-DDTHH:MM:SSZ)"],
    ['TRUE TRUE', "Invalid filter: expected AND, OR or the end of the filter at position 6 but found 'TRUE'"],
    ['()', "Invalid filter: expected a property name or a value at position 2 but found ')'"],
    ['ın = 1', "Invalid filter: unknown property 'ın' at position 1 (fields: NAME, POP, AREA, CODE, FLAG, BORN, my field, DATE, a.b_1)"],
  ])('%j', (filter, message) => {
    expect(errorOf(filter)).toBe(message);
  });
});

describe('unknown properties', () => {
  it('names the property, where it is and the fields there are', () => {
    expect(errorOf("nmae = 'x'")).toBe("Invalid filter: unknown property 'nmae' at position 1 (fields: NAME, POP, AREA, CODE, FLAG, BORN, my field, DATE, a.b_1)");
    expect(errorOf('POP > 1 AND "my  field" IS NULL')).toMatch(/^Invalid filter: unknown property 'my {2}field' at position 13 \(fields: /);
  });

  it('lists at most ten fields', () => {
    const fields = Array.from({ length: 30 }, (_, i) => ({ name: `F${i}`, type: 'number' as const }));
    expect(errorOf('X = 1', fields)).toBe("Invalid filter: unknown property 'X' at position 1 (fields: F0, F1, F2, F3, F4, F5, F6, F7, F8, F9, …)");
  });

  it('says when the file has no fields', () => {
    expect(errorOf('X = 1', [])).toBe("Invalid filter: unknown property 'X' at position 1 (the file has no fields)");
  });

  it('is found in every kind of operand', () => {
    expect(errorOf('POP IN (1, NOPE)')).toMatch(/unknown property 'NOPE' at position 12/);
    expect(errorOf('POP BETWEEN 1 AND NOPE')).toMatch(/unknown property 'NOPE' at position 19/);
    expect(errorOf('NOPE IS NULL')).toMatch(/unknown property 'NOPE' at position 1/);
    expect(errorOf("NOPE LIKE 'a'")).toMatch(/unknown property 'NOPE' at position 1/);
  });
});

describe('type errors', () => {
  it.each([
    ["POP = 'abc'", "Invalid filter: cannot compare number field 'POP' with text 'abc'"],
    ["'abc' < POP", "Invalid filter: cannot compare text 'abc' with number field 'POP'"],
    ["POP = '5'", "Invalid filter: cannot compare number field 'POP' with text '5'"],
    ['NAME = 5', "Invalid filter: cannot compare text field 'NAME' with number 5"],
    ['NAME = TRUE', "Invalid filter: cannot compare text field 'NAME' with TRUE"],
    ['FLAG = 1', "Invalid filter: cannot compare boolean field 'FLAG' with number 1"],
    ["FLAG = 'true'", "Invalid filter: cannot compare boolean field 'FLAG' with text 'true'"],
    ["BORN = '2024-01-01'", "Invalid filter: cannot compare date field 'BORN' with text '2024-01-01'"],
    ['BORN > 20240101', "Invalid filter: cannot compare date field 'BORN' with number 20240101"],
    ["POP < DATE('2024-01-01')", "Invalid filter: cannot compare number field 'POP' with DATE('2024-01-01')"],
    ["NAME = TIMESTAMP('2024-01-01T00:00:00Z')", "Invalid filter: cannot compare text field 'NAME' with TIMESTAMP('2024-01-01T00:00:00Z')"],
    ['NAME = POP', "Invalid filter: cannot compare text field 'NAME' with number field 'POP'"],
    ["1 = 'a'", "Invalid filter: cannot compare number 1 with text 'a'"],
    ['FLAG < TRUE', "Invalid filter: cannot order boolean field 'FLAG' with <; booleans take only = and <>"],
    ['FALSE >= FLAG', 'Invalid filter: cannot order FALSE with >=; booleans take only = and <>'],
    ["POP IN (1, 'two', 3)", "Invalid filter: cannot compare number field 'POP' with text 'two'"],
    ["NAME NOT IN ('a', 2)", "Invalid filter: cannot compare text field 'NAME' with number 2"],
    ["POP BETWEEN 'a' AND 'z'", "Invalid filter: cannot compare number field 'POP' with text 'a'"],
    ["POP BETWEEN 1 AND 'z'", "Invalid filter: cannot compare number field 'POP' with text 'z'"],
    ['FLAG BETWEEN FALSE AND TRUE', "Invalid filter: BETWEEN at position 6 cannot order boolean field 'FLAG'"],
    ["POP LIKE '1%'", "Invalid filter: LIKE at position 5 takes text, not number field 'POP'"],
    ["BORN NOT LIKE '2024%'", "Invalid filter: LIKE at position 10 takes text, not date field 'BORN'"],
    ["5 LIKE '5'", 'Invalid filter: LIKE at position 3 takes text, not number 5'],
  ])('%s', (filter, message) => {
    expect(errorOf(filter)).toBe(message);
  });
});

describe('what messages echo', () => {
  const long = 'x'.repeat(500);
  it('quotes at most 60 characters of the filter', () => {
    const messages = [
      errorOf(`${long} = 1`),
      errorOf(`"${long}" = 1`),
      errorOf(`POP = '${long}'`),
      errorOf(`NAME = 1${long}`),
      errorOf(`NAME ${long}`),
      errorOf(`NAME = '${long}' '${long}'`),
      errorOf(`${long}(1)`),
      errorOf(`BORN = DATE('${long}')`),
      errorOf(`NAME LIKE ${long}`),
    ];
    for (const message of messages) {
      const runs = message.match(/x+/g) ?? [];
      expect(Math.max(...runs.map((run) => run.length))).toBeLessThanOrEqual(60);
      expect(message).toContain('…');
    }
  });

  it('shows a long number cut short too', () => {
    const message = errorOf(`POP = ${'9'.repeat(400)}`);
    expect(message).toBe(`Invalid filter: the number '${'9'.repeat(59)}…' at position 7 is too large`);
  });

  it('throws nothing but the 400 for any of these', () => {
    expect(() => compileFilter("POP = 'abc'", FIELDS)).toThrow(/^Invalid filter: /);
  });
});
