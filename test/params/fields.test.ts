import { describe, expect, it } from 'vitest';
import { nonNegativeNumberParam } from '../../src/params/fields.ts';

describe('nonNegativeNumberParam', () => {
  const parse = (raw: string) => nonNegativeNumberParam().safeParse(raw);

  it.each([
    ['0', 0],
    ['1.', 1],
    ['1.5', 1.5],
    ['.5', 0.5],
    ['+2e3', 2000],
    ['1E-2', 0.01],
    [' 7 ', 7],
  ])('reads %j as %d', (raw, value) => {
    expect(parse(raw)).toMatchObject({ success: true, data: value });
  });

  it.each(['-1', '1..2', 'e3', '.', '', '1e', '0x10', '1e999', 'Infinity', 'NaN'])('refuses %j', (raw) => {
    expect(parse(raw).success).toBe(false);
  });

  it('refuses a million digits followed by a letter in linear time (a backtracking pattern would take hours)', () => {
    expect(parse(`${'1'.repeat(1_000_000)}x`).success).toBe(false);
    expect(parse(`${'1'.repeat(500_000)}.${'1'.repeat(500_000)}e`).success).toBe(false);
  });
});
