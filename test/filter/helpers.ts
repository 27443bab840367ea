import { expect } from 'vitest';
import type { AttributeField, AttributeValue } from '../../src/shapefile/dbf.ts';
import { BadRequestError } from '../../src/errors.ts';
import { compileFilter } from '../../src/filter/index.ts';

export const FIELDS: AttributeField[] = [
  { name: 'NAME', type: 'string' },
  { name: 'POP', type: 'number' },
  { name: 'AREA', type: 'number' },
  { name: 'CODE', type: 'string' },
  { name: 'FLAG', type: 'boolean' },
  { name: 'BORN', type: 'date' },
  { name: 'my field', type: 'string' },
  { name: 'DATE', type: 'date' },
  { name: 'a.b_1', type: 'number' },
];

export type Row = Record<string, AttributeValue>;

/** Whether `row` matches `filter` over FIELDS. */
export function matches(filter: string, row: Row, fields: readonly AttributeField[] = FIELDS): boolean {
  return compileFilter(filter, fields).matches(row);
}

/** Which of `rows` (by index) match. */
export function matching(filter: string, rows: Row[], fields: readonly AttributeField[] = FIELDS): number[] {
  const compiled = compileFilter(filter, fields);
  return rows.flatMap((row, index) => (compiled.matches(row) ? [index] : []));
}

/** The message of the 400 that compiling `filter` throws. */
export function errorOf(filter: string, fields: readonly AttributeField[] = FIELDS): string {
  try {
    compileFilter(filter, fields);
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).status).toBe(400);
    const message = (error as Error).message;
    expect(message.startsWith('Invalid filter: ')).toBe(true);
    return message;
  }
  throw new Error(`expected ${JSON.stringify(filter.slice(0, 80))} to be refused`);
}
