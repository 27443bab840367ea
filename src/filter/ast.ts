/** The syntax tree of a CQL2 text filter, as the parser builds it (names not yet resolved). */
import type { ComparisonOperator } from './tokens.ts';

export type { ComparisonOperator };

/** A property as the filter names it; `position` counts from 1. */
export interface PropertyOperand {
  kind: 'property';
  name: string;
  position: number;
}

interface LiteralBase {
  kind: 'literal';
  /** The literal as written, for messages. */
  text: string;
  position: number;
}

export type LiteralOperand = LiteralBase &
  (
    | { type: 'string'; value: string }
    | { type: 'number'; value: number }
    | { type: 'boolean'; value: boolean }
    /** `DATE('…')`: milliseconds since 1970 at 00:00Z of that day. */
    | { type: 'date'; value: number }
    /** `TIMESTAMP('…')`: milliseconds since 1970 (fractions of a millisecond kept). */
    | { type: 'timestamp'; value: number }
  );

export type Operand = PropertyOperand | LiteralOperand;

export type FilterNode =
  | { kind: 'and' | 'or'; args: FilterNode[] }
  | { kind: 'not'; arg: FilterNode }
  /** A bare `TRUE` or `FALSE`. */
  | { kind: 'constant'; value: boolean }
  | { kind: 'compare'; operator: ComparisonOperator; left: Operand; right: Operand; position: number }
  /** `pattern` is the pattern's text (`''` already read as `'`; `%`, `_` and `\` still to be read). */
  /** `caseInsensitive`: ILIKE, which clients of the older CQL send (GDAL 3.6 for `-where … ILIKE`); CQL2 writes it CASEI(a) LIKE CASEI(b). */
  | { kind: 'like'; negated: boolean; caseInsensitive: boolean; operand: Operand; pattern: string; position: number }
  | { kind: 'in'; negated: boolean; operand: Operand; list: Operand[]; position: number }
  | { kind: 'between'; negated: boolean; operand: Operand; low: Operand; high: Operand; position: number }
  | { kind: 'is-null'; negated: boolean; operand: Operand; position: number };
