/**
 * Compiles a CQL2 text filter against a `.dbf`'s fields into a row predicate.
 *
 * Names resolve case-insensitively to the file's fields (an exact spelling wins if two
 * differ only in case); types are checked here, so a mismatch is a 400 and never a
 * silent false. Evaluation follows SQL's three-valued logic: a comparison with a null
 * operand is UNKNOWN, NOT UNKNOWN is UNKNOWN, AND and OR are Kleene's, and a row matches
 * only when the whole filter is TRUE. IS [NOT] NULL is never UNKNOWN.
 *
 * Typing: number with number, text with text (exact, ordered by UTF-16 code units), a
 * date field with DATE(...) or TIMESTAMP(...) (a date stands for its instant at 00:00Z,
 * so `D = TIMESTAMP('2024-01-31T10:00:00Z')` is false and `D < …` true for D 2024-01-31),
 * booleans with TRUE/FALSE and only by = and <>. LIKE takes text only. IN and BETWEEN
 * follow the comparison rules (BETWEEN orders, so not booleans).
 */
import { fieldNamed, type AttributeField, type AttributeValue } from '../shapefile/dbf.ts';
import type { ComparisonOperator, FilterNode, Operand } from './ast.ts';
import { parseDate } from './dates.ts';
import { compileLike } from './like.ts';
import { clip, invalidFilter } from './limits.ts';
import { parseFilter } from './parse.ts';


export interface CompiledFilter {
  /** The fields (names as the .dbf spells them) the filter reads, each once: a scan decodes only these. */
  fields: string[];
  /** Whether a row matches (row: values by the .dbf's field names; missing keys count as null). */
  matches(row: Readonly<Record<string, AttributeValue>>): boolean;
}

type Row = Readonly<Record<string, AttributeValue>>;
/** TRUE, FALSE, or null for UNKNOWN. */
type Truth = boolean | null;
type Evaluate = (row: Row) => Truth;

/** What an operand compares as: dates and timestamps both as instants (milliseconds). */
type ValueType = 'string' | 'number' | 'boolean' | 'instant';
type Value = string | number | boolean;

interface TypedOperand {
  type: ValueType;
  /** The operand's value in a row; null when null, missing or not of the field's type. */
  read: (row: Row) => Value | null;
  /** Set when the operand is a literal. */
  constant?: Value;
  /** How messages name it: "number field 'POP'", "text 'abc'". */
  description: string;
}

/** Parses and compiles `text` against `fields`; throws a BadRequestError naming the problem. */
export function compileFilter(text: string, fields: readonly AttributeField[]): CompiledFilter {
  const ast = parseFilter(text);
  const compiler = new Compiler(fields);
  const evaluate = compiler.node(ast);
  return { fields: [...compiler.used], matches: (row) => evaluate(row) === true };
}

class Compiler {
  /** Names of the fields read, in order of first use. */
  readonly used = new Set<string>();

  constructor(private readonly fields: readonly AttributeField[]) {}

  node(node: FilterNode): Evaluate {
    switch (node.kind) {
      case 'and':
        return and(node.args.map((arg) => this.node(arg)));
      case 'or':
        return or(node.args.map((arg) => this.node(arg)));
      case 'not': {
        const arg = this.node(node.arg);
        return (row) => {
          const value = arg(row);
          return value === null ? null : !value;
        };
      }
      case 'constant': {
        const value = node.value;
        return () => value;
      }
      case 'compare': {
        const left = this.operand(node.left);
        const right = this.operand(node.right);
        checkComparable(left, right, node.operator);
        return compare(left, node.operator, right);
      }
      case 'like': {
        const operand = this.operand(node.operand);
        const keyword = node.caseInsensitive ? 'ILIKE' : 'LIKE';
        if (operand.type !== 'string') throw invalidFilter(`${keyword} at position ${node.position} takes text, not ${operand.description}`);
        const read = operand.read as (row: Row) => string | null;
        const fold = node.caseInsensitive ? (text: string) => text.toLowerCase() : (text: string) => text;
        const match = compileLike(fold(node.pattern));
        return negate(node.negated, (row) => {
          const value = read(row);
          return value === null ? null : match(fold(value));
        });
      }
      case 'in': {
        const operand = this.operand(node.operand);
        const list = node.list.map((item) => this.operand(item));
        for (const item of list) checkComparable(operand, item, '=');
        return negate(node.negated, isIn(operand, list));
      }
      case 'between': {
        const operand = this.operand(node.operand);
        const low = this.operand(node.low);
        const high = this.operand(node.high);
        if (operand.type === 'boolean') throw invalidFilter(`BETWEEN at position ${node.position} cannot order ${operand.description}`);
        checkComparable(operand, low, '>=');
        checkComparable(operand, high, '<=');
        return negate(node.negated, and([compare(operand, '>=', low), compare(operand, '<=', high)]));
      }
      case 'is-null': {
        const read = this.operand(node.operand).read;
        return node.negated ? (row) => read(row) !== null : (row) => read(row) === null;
      }
    }
  }

  private operand(operand: Operand): TypedOperand {
    if (operand.kind === 'literal') {
      const { value } = operand;
      const read = () => value;
      switch (operand.type) {
        case 'string':
          return { type: 'string', read, constant: value, description: `text '${clip(operand.value)}'` };
        case 'number':
          return { type: 'number', read, constant: value, description: `number ${clip(operand.text)}` };
        case 'boolean':
          return { type: 'boolean', read, constant: value, description: operand.text };
        default:
          return { type: 'instant', read, constant: value, description: clip(operand.text) };
      }
    }
    const field = fieldNamed(this.fields, operand.name);
    if (!field) {
      const names = this.fields.slice(0, 10).map((known) => known.name);
      if (this.fields.length > 10) names.push('…');
      const known = names.length > 0 ? `fields: ${names.join(', ')}` : 'the file has no fields';
      throw invalidFilter(`unknown property '${clip(operand.name)}' at position ${operand.position} (${known})`);
    }
    this.used.add(field.name);
    const name = field.name;
    const description = `${field.type === 'string' ? 'text' : field.type} field '${clip(name)}'`;
    switch (field.type) {
      case 'string':
        return { type: 'string', read: (row) => stringOrNull(row[name]), description };
      case 'number':
        return { type: 'number', read: (row) => numberOrNull(row[name]), description };
      case 'boolean':
        return { type: 'boolean', read: (row) => booleanOrNull(row[name]), description };
      case 'date':
        return { type: 'instant', read: (row) => dateOrNull(row[name]), description };
    }
  }
}

function checkComparable(left: TypedOperand, right: TypedOperand, operator: ComparisonOperator): void {
  if (left.type !== right.type) throw invalidFilter(`cannot compare ${left.description} with ${right.description}`);
  if (left.type === 'boolean' && operator !== '=' && operator !== '<>') {
    throw invalidFilter(`cannot order ${left.description} with ${operator}; booleans take only = and <>`);
  }
}

function compare(left: TypedOperand, operator: ComparisonOperator, right: TypedOperand): Evaluate {
  const readLeft = left.read;
  const readRight = right.read;
  const test = TESTS[operator];
  return (row) => {
    const a = readLeft(row);
    if (a === null) return null;
    const b = readRight(row);
    return b === null ? null : test(a, b);
  };
}

const TESTS: Record<ComparisonOperator, (a: Value, b: Value) => boolean> = {
  '=': (a, b) => a === b,
  '<>': (a, b) => a !== b,
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
};

function isIn(operand: TypedOperand, list: TypedOperand[]): Evaluate {
  const read = operand.read;
  if (list.every((item) => item.constant !== undefined)) {
    const values = new Set(list.map((item) => item.constant));
    return (row) => {
      const value = read(row);
      return value === null ? null : values.has(value);
    };
  }
  const reads = list.map((item) => item.read);
  return (row) => {
    const value = read(row);
    if (value === null) return null;
    let unknown = false;
    for (const readItem of reads) {
      const item = readItem(row);
      if (item === null) unknown = true;
      else if (item === value) return true;
    }
    return unknown ? null : false;
  };
}

function and(args: Evaluate[]): Evaluate {
  return (row) => {
    let unknown = false;
    for (const arg of args) {
      const value = arg(row);
      if (value === false) return false;
      if (value === null) unknown = true;
    }
    return unknown ? null : true;
  };
}

function or(args: Evaluate[]): Evaluate {
  return (row) => {
    let unknown = false;
    for (const arg of args) {
      const value = arg(row);
      if (value === true) return true;
      if (value === null) unknown = true;
    }
    return unknown ? null : false;
  };
}

function negate(negated: boolean, evaluate: Evaluate): Evaluate {
  if (!negated) return evaluate;
  return (row) => {
    const value = evaluate(row);
    return value === null ? null : !value;
  };
}

// A row's value counts as null unless it has the field's type (also guards against
// inherited keys such as 'constructor' on a plain object).
function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && !Number.isNaN(value) ? value : null;
}

function booleanOrNull(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null;
}

/** A date field's 'YYYY-MM-DD' as its instant at 00:00Z; anything else (an impossible day included) is null. */
function dateOrNull(value: unknown): number | null {
  return typeof value === 'string' ? parseDate(value) : null;
}
