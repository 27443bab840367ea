import { describe, expect, it } from 'vitest';
import { compileLike } from '../../src/filter/like.ts';

function like(value: string, pattern: string): boolean {
  return compileLike(pattern)(value);
}

describe('LIKE matching', () => {
  it.each([
    // [value, pattern, matches]
    ['', '', true],
    ['a', '', false],
    ['', '%', true],
    ['', '%%', true],
    ['', '_', false],
    ['a', '_', true],
    ['ab', '_', false],
    ['abc', 'abc', true],
    ['abc', 'ab', false],
    ['abc', 'bc', false],
    ['abc', 'a%', true],
    ['abc', '%c', true],
    ['abc', '%b%', true],
    ['abc', '%d%', false],
    ['abc', 'a%c', true],
    ['ac', 'a%c', true],
    ['abc', 'a_c', true],
    ['ac', 'a_c', false],
    ['abc', '___', true],
    ['abc', '____', false],
    ['abc', '%___%', true],
    ['abc', '%____%', false],
    ['abcabc', 'a%c%c', true],
    ['abcab', 'a%c%c', false],
    ['aaa', '%a%a%a%', true],
    ['aa', '%a%a%a%', false],
    ['abab', '%ab', true],
    ['abcbc', 'a%bc', true],
    ['xay', '%a%a%', false],
    ['mississippi', 'm%iss%ppi', true],
    ['mississippi', 'm%iss%iss%iss%', false],
    ['mississippi', '%s_s%', true],
    ['mississippi', '%s_p%', true],
    ['mississippi', '%p_s%', false],
    ['100%', '100\\%', true],
    ['1000', '100\\%', false],
    ['a_b', 'a\\_b', true],
    ['axb', 'a\\_b', false],
    ['a\\b', 'a\\\\b', true],
    ['ab', 'a\\b', true], // an escaped ordinary character is itself
    ['%', '\\%', true],
    ['x%y', '%\\%%', true],
    ['xy', '%\\%%', false],
    ['Paris', 'paris', false],
    ['PARIS', 'P%s', false],
  ])('%j LIKE %j: %s', (value, pattern, expected) => {
    expect(like(value, pattern)).toBe(expected);
  });

  it('counts a character outside the BMP as one', () => {
    expect(like('😀', '_')).toBe(true);
    expect(like('a😀b', 'a_b')).toBe(true);
    expect(like('a😀b', 'a__b')).toBe(false);
    expect(like('😀😁', '%😁')).toBe(true);
    expect(like('😀😁', '😀%')).toBe(true);
    expect(like('é', '_')).toBe(true);
  });

  it('treats regular-expression characters as plain', () => {
    expect(like('a.c', 'a.c')).toBe(true);
    expect(like('abc', 'a.c')).toBe(false);
    expect(like('(a)*[b]+?$^|', '(a)*[b]+?$^|')).toBe(true);
    expect(like('a\nb', 'a_b')).toBe(true);
    expect(like('a\nb', 'a%')).toBe(true);
  });
});
