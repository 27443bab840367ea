/**
 * A recursive-descent parser for the subset of CQL2 text (OGC 21-065) that selects `.dbf`
 * rows. The grammar, loosest binding first:
 *
 *   filter    = or END
 *   or        = and { OR and }
 *   and       = not { AND not }
 *   not       = { NOT } primary
 *   primary   = "(" or ")" | TRUE | FALSE | operand predicate
 *   predicate = compareOp operand
 *             | [NOT] LIKE 'pattern' | [NOT] ILIKE 'pattern'
 *             | [NOT] IN "(" operand { "," operand } ")"
 *             | [NOT] BETWEEN operand AND operand
 *             | IS [NOT] NULL
 *   operand   = name | "quoted name" | 'text' | number | TRUE | FALSE
 *             | DATE('YYYY-MM-DD') | TIMESTAMP('YYYY-MM-DDTHH:MM:SS[.f]Z')
 *
 * Every token is looked at a bounded number of times, and recursion is bounded by
 * MAX_FILTER_DEPTH (parentheses and NOTs), so a hostile filter costs linear time and a
 * shallow stack.
 */
import type { FilterNode, LiteralOperand, Operand } from './ast.ts';
import { parseDate, parseTimestamp } from './dates.ts';
import { clip, invalidFilter, MAX_FILTER_DEPTH, MAX_FILTER_LENGTH, MAX_IN_LIST_ITEMS, MAX_LIKE_PATTERN_LENGTH } from './limits.ts';
import { type Keyword, type Token, tokenize } from './tokens.ts';

/** Parses CQL2 text into a syntax tree; throws the 400 that names the first problem. */
export function parseFilter(text: string): FilterNode {
  if (text.length > MAX_FILTER_LENGTH) {
    throw invalidFilter(`the filter is ${text.length} characters long; the most is ${MAX_FILTER_LENGTH}`);
  }
  return new Parser(tokenize(text)).filter();
}

class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  filter(): FilterNode {
    if (this.peek().kind === 'end') throw invalidFilter('the filter is empty');
    const node = this.or();
    const rest = this.peek();
    if (rest.kind !== 'end') throw invalidFilter(`expected AND, OR or the end of the filter at position ${rest.position} but found ${show(rest)}`);
    return node;
  }

  private or(): FilterNode {
    const args = [this.and()];
    while (this.isKeyword('OR')) {
      this.index++;
      args.push(this.and());
    }
    return args.length === 1 ? args[0] : { kind: 'or', args };
  }

  private and(): FilterNode {
    const args = [this.not()];
    while (this.isKeyword('AND')) {
      this.index++;
      args.push(this.not());
    }
    return args.length === 1 ? args[0] : { kind: 'and', args };
  }

  private not(): FilterNode {
    const outer = this.depth;
    let nots = 0;
    while (this.isKeyword('NOT')) {
      this.enter(this.next());
      nots++;
    }
    let node = this.primary();
    for (; nots > 0; nots--) node = { kind: 'not', arg: node };
    this.depth = outer;
    return node;
  }

  private primary(): FilterNode {
    const token = this.peek();
    if (token.kind === '(') {
      this.enter(this.next());
      const node = this.or();
      this.expect(')', "')'");
      this.depth--;
      return node;
    }
    const operand = this.operand();
    const predicate = this.predicate(operand);
    if (predicate) return predicate;
    if (operand.kind === 'literal' && operand.type === 'boolean') return { kind: 'constant', value: operand.value };
    const after = this.peek();
    const what = operand.kind === 'property' ? `property '${clip(operand.name)}'` : clip(operand.text);
    throw invalidFilter(`expected =, <>, <, <=, >, >=, LIKE, IN, BETWEEN or IS after ${what} at position ${after.position} but found ${show(after)}`);
  }

  /** The predicate that follows `operand`, or undefined when none does. */
  private predicate(operand: Operand): FilterNode | undefined {
    const token = this.peek();
    if (token.kind === 'operator') {
      this.index++;
      return { kind: 'compare', operator: token.text, left: operand, right: this.operand(), position: token.position };
    }
    if (token.kind !== 'word') return undefined;
    if (token.keyword === 'IS') {
      this.index++;
      const negated = this.isKeyword('NOT');
      if (negated) this.index++;
      this.expectKeyword('NULL', negated ? 'NULL' : 'NULL or NOT NULL');
      return { kind: 'is-null', negated, operand, position: token.position };
    }
    const negated = token.keyword === 'NOT';
    const operator = negated ? this.tokens[this.index + 1] : token;
    const keyword = operator.kind === 'word' ? operator.keyword : undefined;
    if (keyword !== 'LIKE' && keyword !== 'ILIKE' && keyword !== 'IN' && keyword !== 'BETWEEN') {
      if (negated) throw invalidFilter(`expected LIKE, ILIKE, IN or BETWEEN after NOT at position ${operator.position} but found ${show(operator)}`);
      return undefined;
    }
    this.index += negated ? 2 : 1;
    const position = operator.position;
    if (keyword === 'LIKE' || keyword === 'ILIKE') {
      return { kind: 'like', negated, caseInsensitive: keyword === 'ILIKE', operand, pattern: this.pattern(keyword), position };
    }
    if (keyword === 'BETWEEN') {
      const low = this.operand();
      this.expectKeyword('AND', 'AND');
      return { kind: 'between', negated, operand, low, high: this.operand(), position };
    }
    this.expect('(', "'(' after IN");
    const list = [this.operand()];
    while (this.peek().kind === ',') {
      this.index++;
      const item = this.operand();
      if (list.length === MAX_IN_LIST_ITEMS) {
        throw invalidFilter(`the IN list at position ${position} has more than ${MAX_IN_LIST_ITEMS} items`);
      }
      list.push(item);
    }
    this.expect(')', "',' or ')'");
    return { kind: 'in', negated, operand, list, position };
  }

  private pattern(keyword: 'LIKE' | 'ILIKE'): string {
    const token = this.next();
    if (token.kind !== 'string') throw invalidFilter(`expected a pattern in single quotes after ${keyword} at position ${token.position} but found ${show(token)}`);
    const pattern = token.text;
    if (pattern.length > MAX_LIKE_PATTERN_LENGTH) {
      throw invalidFilter(`the LIKE pattern at position ${token.position} is ${pattern.length} characters long; the most is ${MAX_LIKE_PATTERN_LENGTH}`);
    }
    let escaped = false;
    for (let i = 0; i < pattern.length; i++) escaped = !escaped && pattern[i] === '\\';
    if (escaped) throw invalidFilter(`the LIKE pattern at position ${token.position} ends with a lone escape character \\`);
    return pattern;
  }

  private operand(): Operand {
    const token = this.next();
    switch (token.kind) {
      case 'quoted-name':
        return { kind: 'property', name: token.text, position: token.position };
      case 'string':
        return { kind: 'literal', type: 'string', value: token.text, text: `'${token.text}'`, position: token.position };
      case 'number':
        return { kind: 'literal', type: 'number', value: token.value, text: token.text, position: token.position };
      case 'word':
        break;
      default:
        throw invalidFilter(`expected a property name or a value at position ${token.position} but found ${show(token)}`);
    }
    const calls = this.peek().kind === '(';
    switch (token.keyword) {
      case 'TRUE':
      case 'FALSE':
        return { kind: 'literal', type: 'boolean', value: token.keyword === 'TRUE', text: token.keyword, position: token.position };
      case 'DATE':
      case 'TIMESTAMP':
        // DATE and TIMESTAMP are literals only when called; bare, they name a property.
        if (calls) return this.instant(token.keyword, token.position);
        return { kind: 'property', name: token.text, position: token.position };
      case 'NULL':
        throw invalidFilter(`NULL at position ${token.position} is no value to compare with; test for it with IS NULL or IS NOT NULL`);
      case undefined:
        if (calls) throw invalidFilter(`unsupported function '${clip(token.text)}' at position ${token.position}`);
        return { kind: 'property', name: token.text, position: token.position };
      default:
        throw invalidFilter(
          `expected a property name or a value at position ${token.position} but found ${show(token)} (a property named like a keyword goes in double quotes)`,
        );
    }
  }

  /** The rest of `DATE('…')` or `TIMESTAMP('…')` after its keyword. */
  private instant(keyword: 'DATE' | 'TIMESTAMP', position: number): LiteralOperand {
    this.index++; // "("
    const text = this.next();
    const form = keyword === 'DATE' ? 'YYYY-MM-DD' : 'YYYY-MM-DDTHH:MM:SSZ';
    if (text.kind !== 'string') throw invalidFilter(`expected '${form}' in single quotes after ${keyword}( at position ${text.position} but found ${show(text)}`);
    const value = keyword === 'DATE' ? parseDate(text.text) : parseTimestamp(text.text);
    if (value === null) throw invalidFilter(`invalid ${keyword.toLowerCase()} '${clip(text.text)}' at position ${text.position} (expected ${form})`);
    this.expect(')', "')'");
    const type = keyword === 'DATE' ? 'date' : 'timestamp';
    return { kind: 'literal', type, value, text: `${keyword}('${text.text}')`, position };
  }

  private enter(token: Token): void {
    if (++this.depth > MAX_FILTER_DEPTH) {
      throw invalidFilter(`the filter nests parentheses and NOTs more than ${MAX_FILTER_DEPTH} deep (at position ${token.position})`);
    }
  }

  private peek(): Token {
    return this.tokens[this.index];
  }

  /** The current token, then moves past it (never past the end token). */
  private next(): Token {
    const token = this.tokens[this.index];
    if (token.kind !== 'end') this.index++;
    return token;
  }

  private isKeyword(keyword: Keyword): boolean {
    const token = this.tokens[this.index];
    return token.kind === 'word' && token.keyword === keyword;
  }

  private expect(kind: Token['kind'], what: string): void {
    const token = this.next();
    if (token.kind !== kind) throw invalidFilter(`expected ${what} at position ${token.position} but found ${show(token)}`);
  }

  private expectKeyword(keyword: Keyword, what: string): void {
    const token = this.next();
    if (!(token.kind === 'word' && token.keyword === keyword)) throw invalidFilter(`expected ${what} at position ${token.position} but found ${show(token)}`);
  }
}

/** A token as a message shows it. */
function show(token: Token): string {
  switch (token.kind) {
    case 'end':
      return 'the end of the filter';
    case 'string':
      return `'${clip(token.text)}'`;
    case 'quoted-name':
      return `"${clip(token.text)}"`;
    default:
      return `'${clip(token.text)}'`;
  }
}
