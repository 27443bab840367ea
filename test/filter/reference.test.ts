/**
 * Random filters on random rows, compared with a plain reference evaluator written here
 * from the rules (SQL three-valued logic, LIKE through a RegExp of the small pattern).
 */
import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../src/filter/index.ts';
import type { AttributeField } from '../../src/shapefile/dbf.ts';
import type { Row } from './helpers.ts';
import { seededRandom } from '../support/seeded-random.ts';

type T = 'T' | 'F' | 'U';
type Scalar = string | number | boolean | null;
type Kind = 'number' | 'string' | 'boolean' | 'date';

const FIELDS: AttributeField[] = [
  { name: 'N1', type: 'number' },
  { name: 'N2', type: 'number' },
  { name: 'S1', type: 'string' },
  { name: 'S2', type: 'string' },
  { name: 'B', type: 'boolean' },
  { name: 'D', type: 'date' },
];
const VALUES: Record<Kind, Scalar[]> = {
  number: [-2, -1, 0, 1, 2, 3.5, 1000, null],
  string: ['', 'a', 'ab', 'b', 'A', "a'b", 'a%', 'ba', 'b_a', 'aab', null],
  boolean: [true, false, null],
  date: ['2023-12-31', '2024-01-01', '2024-01-02', '2024-02-29', null],
};
const OPERATORS = ['=', '<>', '<', '<=', '>', '>='] as const;

interface Case {
  text: string;
  evaluate: (row: Row) => T;
}

function generator(next: () => number) {
  const pick = <V>(items: readonly V[]): V => items[Math.floor(next() * items.length)];
  const fieldsOf = (kind: Kind) => FIELDS.filter((field) => field.type === kind);
  const casing = (word: string) => pick([word, word.toLowerCase(), word[0] + word.slice(1).toLowerCase()]);
  const name = (field: AttributeField) => pick([field.name, field.name.toLowerCase(), `"${field.name}"`, `"${field.name.toLowerCase()}"`]);

  /** An operand of `kind`: a property or a literal; `read` gives its value in a row. */
  function operand(kind: Kind, literalOnly = false): { text: string; read: (row: Row) => Scalar } {
    if (!literalOnly && next() < 0.5) {
      const field = pick(fieldsOf(kind));
      return { text: name(field), read: (row) => row[field.name] ?? null };
    }
    const value = pick(VALUES[kind].filter((v) => v !== null));
    return { text: literal(kind, value), read: () => value };
  }

  function literal(kind: Kind, value: Scalar): string {
    switch (kind) {
      case 'number': {
        const n = value as number;
        return pick([String(n), n.toExponential(), n < 0 ? String(n) : `+${n}`, Number.isInteger(n) ? `${n}.` : String(n)]);
      }
      case 'string':
        return `'${(value as string).replaceAll("'", "''")}'`;
      case 'boolean':
        return casing(value ? 'TRUE' : 'FALSE');
      case 'date':
        return next() < 0.7 ? `${casing('DATE')}('${value}')` : `${casing('TIMESTAMP')}('${value}T00:00:00Z')`;
    }
  }

  function predicate(): Case {
    const kind = pick<Kind>(['number', 'number', 'string', 'string', 'boolean', 'date']);
    const shape = pick(['compare', 'compare', 'like', 'in', 'between', 'null']);
    if (shape === 'null') {
      const field = pick(fieldsOf(kind));
      const negated = next() < 0.5;
      return {
        text: `${name(field)} ${casing('IS')} ${negated ? `${casing('NOT')} ` : ''}${casing('NULL')}`,
        evaluate: (row) => ((row[field.name] ?? null) === null) !== negated ? 'T' : 'F',
      };
    }
    if (shape === 'like') {
      const subject = operand('string');
      const pattern = Array.from({ length: Math.floor(next() * 5) }, () => pick(['a', 'b', '%', '_', '\\%', '\\_', "''", 'A'])).join('');
      const negated = next() < 0.3;
      const regex = likeRegex(pattern.replaceAll("''", "'"));
      return {
        text: `${subject.text} ${negated ? `${casing('NOT')} ` : ''}${casing('LIKE')} '${pattern}'`,
        evaluate: (row) => {
          const value = subject.read(row);
          return value === null ? 'U' : not3(regex.test(value as string) ? 'T' : 'F', negated);
        },
      };
    }
    if (shape === 'in') {
      const subject = operand(kind);
      const items = Array.from({ length: 1 + Math.floor(next() * 4) }, () => operand(kind));
      const negated = next() < 0.3;
      return {
        text: `${subject.text} ${negated ? `${casing('NOT')} ` : ''}${casing('IN')} (${items.map((item) => item.text).join(', ')})`,
        evaluate: (row) => {
          const value = subject.read(row);
          if (value === null) return 'U';
          let result: T = 'F';
          for (const item of items) {
            const other = item.read(row);
            if (other === null) result = result === 'T' ? 'T' : 'U';
            else if (compareValues(kind, value, '=', other)) result = 'T';
          }
          return not3(result, negated);
        },
      };
    }
    if (shape === 'between' && kind !== 'boolean') {
      const subject = operand(kind);
      const low = operand(kind);
      const high = operand(kind);
      const negated = next() < 0.3;
      return {
        text: `${subject.text} ${negated ? `${casing('NOT')} ` : ''}${casing('BETWEEN')} ${low.text} ${casing('AND')} ${high.text}`,
        evaluate: (row) => not3(and3(cmp3(kind, subject.read(row), '>=', low.read(row)), cmp3(kind, subject.read(row), '<=', high.read(row))), negated),
      };
    }
    const left = operand(kind);
    const right = operand(kind);
    const operator = kind === 'boolean' ? pick(['=', '<>'] as const) : pick(OPERATORS);
    return { text: `${left.text} ${operator} ${right.text}`, evaluate: (row) => cmp3(kind, left.read(row), operator, right.read(row)) };
  }

  function expression(depth: number): Case {
    const roll = next();
    if (depth === 0 || roll < 0.35) return predicate();
    if (roll < 0.5) {
      const inner = expression(depth - 1);
      return { text: `${casing('NOT')} (${inner.text})`, evaluate: (row) => not3(inner.evaluate(row), true) };
    }
    const count = 2 + Math.floor(next() * 3);
    const parts = Array.from({ length: count }, () => expression(depth - 1));
    const isAnd = roll < 0.75;
    return {
      text: parts.map((part) => `(${part.text})`).join(` ${casing(isAnd ? 'AND' : 'OR')} `),
      evaluate: (row) => parts.map((part) => part.evaluate(row)).reduce(isAnd ? and3 : or3),
    };
  }

  function row(): Row {
    const values: Row = {};
    for (const field of FIELDS) {
      if (next() < 0.1) continue; // missing key: null
      values[field.name] = pick(VALUES[field.type]);
    }
    return values;
  }

  return { expression, row };
}

function compareValues(kind: Kind, a: Scalar, operator: string, b: Scalar): boolean {
  // dates as 'YYYY-MM-DD' (or a timestamp at 00:00Z) order as text
  const x = kind === 'date' ? String(a).slice(0, 10) : a;
  const y = kind === 'date' ? String(b).slice(0, 10) : b;
  switch (operator) {
    case '=':
      return x === y;
    case '<>':
      return x !== y;
    case '<':
      return (x as number) < (y as number);
    case '<=':
      return (x as number) <= (y as number);
    case '>':
      return (x as number) > (y as number);
    default:
      return (x as number) >= (y as number);
  }
}

function cmp3(kind: Kind, a: Scalar, operator: string, b: Scalar): T {
  if (a === null || b === null) return 'U';
  return compareValues(kind, a, operator, b) ? 'T' : 'F';
}

function and3(a: T, b: T): T {
  return a === 'F' || b === 'F' ? 'F' : a === 'U' || b === 'U' ? 'U' : 'T';
}

function or3(a: T, b: T): T {
  return a === 'T' || b === 'T' ? 'T' : a === 'U' || b === 'U' ? 'U' : 'F';
}

function not3(a: T, negated: boolean): T {
  if (!negated || a === 'U') return a;
  return a === 'T' ? 'F' : 'T';
}

function likeRegex(pattern: string): RegExp {
  let source = '';
  const characters = Array.from(pattern);
  for (let i = 0; i < characters.length; i++) {
    const c = characters[i];
    if (c === '\\') source += escapeRegex(characters[++i]);
    else if (c === '%') source += '.*';
    else if (c === '_') source += '.';
    else source += escapeRegex(c);
  }
  return new RegExp(`^${source}$`, 'su');
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

describe('random filters against a reference evaluator', () => {
  it('agree on 200 filters × 40 rows', () => {
    const { expression, row } = generator(seededRandom(20240131));
    const rows = Array.from({ length: 40 }, row);
    let matched = 0;
    let total = 0;
    for (let i = 0; i < 200; i++) {
      const sample = expression(3);
      const compiled = compileFilter(sample.text, FIELDS);
      for (const r of rows) {
        const expected = sample.evaluate(r) === 'T';
        if (compiled.matches(r) !== expected) {
          throw new Error(`filter ${sample.text} on ${JSON.stringify(r)}: expected ${expected}`);
        }
        total++;
        if (expected) matched++;
      }
    }
    // the sample is not degenerate: both outcomes occur often
    expect(matched).toBeGreaterThan(total * 0.1);
    expect(matched).toBeLessThan(total * 0.9);
  });

  it('agree on flat filters with no parentheses, where precedence decides', () => {
    const next = seededRandom(7);
    const { row } = generator(next);
    const rows = Array.from({ length: 40 }, row);
    const atoms = ["N1 > 0", "S1 LIKE 'a%'", 'B = TRUE', "D < DATE('2024-01-02')", 'N2 IS NULL', "S2 IN ('a', 'b')"];
    const reference: Record<string, (r: Row) => T> = {
      'N1 > 0': (r) => cmp3('number', r.N1 ?? null, '>', 0),
      "S1 LIKE 'a%'": (r) => (r.S1 == null ? 'U' : (r.S1 as string).startsWith('a') ? 'T' : 'F'),
      'B = TRUE': (r) => cmp3('boolean', r.B ?? null, '=', true),
      "D < DATE('2024-01-02')": (r) => cmp3('date', r.D ?? null, '<', '2024-01-02'),
      'N2 IS NULL': (r) => ((r.N2 ?? null) === null ? 'T' : 'F'),
      "S2 IN ('a', 'b')": (r) => (r.S2 == null ? 'U' : r.S2 === 'a' || r.S2 === 'b' ? 'T' : 'F'),
    };
    for (let i = 0; i < 100; i++) {
      // term := [NOT] atom; ANDs bind before ORs
      const orTerms: { text: string; evaluate: (r: Row) => T }[] = [];
      for (let o = 0; o < 1 + Math.floor(next() * 3); o++) {
        const andTerms = Array.from({ length: 1 + Math.floor(next() * 3) }, () => {
          const atom = atoms[Math.floor(next() * atoms.length)];
          const negated = next() < 0.3;
          return { text: `${negated ? 'NOT ' : ''}${atom}`, evaluate: (r: Row) => not3(reference[atom](r), negated) };
        });
        orTerms.push({ text: andTerms.map((t) => t.text).join(' AND '), evaluate: (r) => andTerms.map((t) => t.evaluate(r)).reduce(and3) });
      }
      const text = orTerms.map((t) => t.text).join(' OR ');
      const compiled = compileFilter(text, FIELDS);
      for (const r of rows) expect(compiled.matches(r), `${text} on ${JSON.stringify(r)}`).toBe(orTerms.map((t) => t.evaluate(r)).reduce(or3) === 'T');
    }
  });
});
