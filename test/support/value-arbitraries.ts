/**
 * Generated parameter values, as the text a client puts in a query: derived from the JSON
 * Schema the server's own /openapi.json gives each parameter (its type, enum, bounds and
 * pattern, which come from the zod schemas that validate the routes), and from what the
 * test knows of its shapefiles (files, fields, ids, filters over those fields). Each mixes
 * values the route should take with the hostile ones next to them: bounds and one past,
 * extreme sizes, long lists near and past the limits, deep and long filters, odd text.
 */
import { fc } from '@fast-check/vitest';
import { MAX_FILTER_DEPTH, MAX_FILTER_LENGTH, MAX_IN_LIST_ITEMS, MAX_LIKE_PATTERN_LENGTH } from '../../src/filter/index.ts';
import { HOSTILE_TEXTS, type GeneratedFile } from './generated-data.ts';

/** A parameter's schema as /openapi.json states it (the subset the generators read). */
export interface ParameterSchema {
  type?: string;
  enum?: (string | number)[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  items?: ParameterSchema;
}

/** Text no parameter should take, whatever its type. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', '  \t', 'null', 'undefined', 'NaN', 'true', '[]', '{}', '__proto__', 'constructor', '0x10', '1e999', '-0', '٣', '１２'),
  fc.constantFrom(...HOSTILE_TEXTS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }).map((text) => text.repeat(50)),
  fc.integer({ min: 101, max: 9_000 }).map((length) => 'x'.repeat(length)),
);

/**
 * A value for a parameter of `schema`: when `hostile`, near what it takes (in range, at its
 * bounds, just past them, odd spellings of numbers); otherwise what it takes.
 */
export function valueFromSchema(schema: ParameterSchema, hostile: boolean, choicesInAnyCase = true): fc.Arbitrary<string> {
  if (!hostile) return validFromSchema(schema, choicesInAnyCase);
  if (schema.enum) {
    const choices = schema.enum.map(String);
    return fc.oneof(
      { weight: 6, arbitrary: fc.mixedCase(fc.constantFrom(...choices)) },
      { weight: 1, arbitrary: fc.constantFrom(...choices).map((choice) => ` ${choice} `) },
      { weight: 1, arbitrary: fc.constantFrom(...choices).map((choice) => `${choice}x`) },
    );
  }
  switch (schema.type) {
    case 'integer':
      return integerText(schema.minimum ?? -1_000_000, schema.maximum ?? 1_000_000);
    case 'number':
      return numberText(schema.minimum ?? -1e9);
    case 'array':
      return listText(schema);
    default:
      return stringText(schema);
  }
}

/** A value `schema` takes (a choice in any case where the route reads choices so). */
function validFromSchema(schema: ParameterSchema, choicesInAnyCase: boolean): fc.Arbitrary<string> {
  if (schema.enum) {
    const choice = fc.constantFrom(...schema.enum.map(String));
    return choicesInAnyCase ? fc.mixedCase(choice) : choice;
  }
  switch (schema.type) {
    case 'integer':
      return fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 1000, (schema.minimum ?? 0) + 1000) }).map(String);
    case 'number':
      return fc.double({ min: schema.minimum ?? 0, max: 100, noNaN: true }).map(String);
    case 'array': {
      const item = schema.items ? validFromSchema(schema.items, choicesInAnyCase) : fc.string({ minLength: 1, maxLength: 8 });
      return fc.array(item, { minLength: Math.max(1, schema.minItems ?? 1), maxLength: Math.min(schema.maxItems ?? 10, 10) }).map((items) => items.join(','));
    }
    default:
      return schema.pattern ? fc.stringMatching(new RegExp(schema.pattern), { size: 'small' }) : fc.string({ minLength: 1, maxLength: 20 });
  }
}

function integerText(min: number, max: number): fc.Arbitrary<string> {
  const span = Math.min(max, min + 1_000_000);
  return fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min, max: span }).map(String) },
    { weight: 3, arbitrary: fc.constantFrom(min, max, min - 1, max + 1).map(String) },
    { weight: 1, arbitrary: fc.constantFrom('+1', ' 7 ', '007', '1.0', '1e3', '9007199254740993', '-9999999999999999', '99999999999999999999') },
  );
}

function numberText(min: number): fc.Arbitrary<string> {
  return fc.oneof(
    fc.double({ min, max: 1e6, noNaN: true }).map(String),
    fc.constantFrom('0', '.5', '5.', '1e308', '1e-320', 'Infinity', 'NaN', '-1', '1' + '0'.repeat(400), '0.' + '1'.repeat(500)),
  );
}

function listText(schema: ParameterSchema): fc.Arbitrary<string> {
  const item = schema.items ? valueFromSchema(schema.items, true) : fc.string();
  const minLength = Math.max(0, (schema.minItems ?? 0) - 1);
  const maxLength = (schema.maxItems ?? 10) + 1;
  return fc.array(item, { minLength, maxLength: Math.min(maxLength, 300) }).map((items) => items.join(','));
}

function stringText(schema: ParameterSchema): fc.Arbitrary<string> {
  const arbitraries: fc.Arbitrary<string>[] = [];
  if (schema.pattern) arbitraries.push(fc.stringMatching(new RegExp(schema.pattern), { size: 'small' }));
  if (schema.maxLength !== undefined) {
    const limit = schema.maxLength;
    arbitraries.push(fc.integer({ min: limit - 2, max: limit + 2 }).map((length) => 'a'.repeat(Math.max(0, length))));
  }
  arbitraries.push(fc.string({ maxLength: 20 }));
  return fc.oneof(...arbitraries);
}

/** A name as a client might spell it: in any case. */
export const anyCase = (name: string): fc.Arbitrary<string> => fc.mixedCase(fc.constant(name));

/** A shapefile name as a request gives it: one of the folder's in any case, or one that is not there. */
export function fileName(files: readonly GeneratedFile[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...files.map((file) => file.name)).chain(anyCase) },
    { weight: 1, arbitrary: fc.constantFrom('nope', 'points.shp', '../points', '..', '.', '/etc/passwd', 'points\u0000', 'POINTS ', '__proto__', 'constructor', 'toString') },
    { weight: 1, arbitrary: hostileText },
  );
}

/** Fields of `file` in any case; when `hostile`, unknown and hostile names among them, and lists near and far past `max`. */
export function fieldList(file: GeneratedFile | undefined, max: number, hostile: boolean): fc.Arbitrary<string> {
  const known = file && file.fields.length > 0 ? file.fields : ['NAME'];
  if (!hostile) {
    return fc.oneof(
      fc.array(fc.constantFrom(...known).chain(anyCase), { minLength: 1, maxLength: Math.min(max, 20) }),
      fc.constant(known.slice(0, max)),
    ).map((names) => names.join(','));
  }
  const name = fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(...known).chain(anyCase) },
    { weight: 1, arbitrary: fc.constantFrom('NOPE', '__proto__', 'constructor', 'toString', 'hasOwnProperty', ' NAME ', '', 'x'.repeat(65), 'x'.repeat(64)) },
  );
  return fc.oneof(
    { weight: 6, arbitrary: fc.array(name, { minLength: 1, maxLength: 25 }) },
    // Every field, in order: the largest answer the fields can make.
    { weight: 2, arbitrary: fc.constant(known) },
    { weight: 1, arbitrary: fc.integer({ min: max - 2, max: max + 3 }).chain((count) => fc.array(name, { minLength: count, maxLength: count })) },
    // A huge list: one name repeated far past the limit.
    { weight: 1, arbitrary: fc.integer({ min: 300, max: 3_000 }).map((count) => Array.from({ length: count }, () => known[0])) },
  ).map((names) => names.join(','));
}

/** A fid list of the file's ids, repeats allowed; when `hostile`, ids out of the file, children, and lengths near and past `maxIds`. */
export function fidList(file: GeneratedFile | undefined, maxIds: number, hostile: boolean): fc.Arbitrary<string> {
  const features = Math.max(1, file?.features ?? 1);
  if (!hostile) {
    return fc.oneof(
      { weight: 6, arbitrary: fc.array(fc.integer({ min: 0, max: features - 1 }), { minLength: 1, maxLength: 8 }).map((ids) => ids.join(',')) },
      { weight: 1, arbitrary: fc.integer({ min: 9, max: maxIds }).map((count) => sequentialIds(count, features)) },
    );
  }
  const id = fc.oneof(
    { weight: 10, arbitrary: fc.integer({ min: 0, max: features - 1 }).map(String) },
    { weight: 2, arbitrary: fc.tuple(fc.integer({ min: 0, max: features - 1 }), fc.integer({ min: 0, max: (file?.maxChildren ?? 1) + 1 })).map(([parent, child]) => `${parent}.${child}`) },
    { weight: 1, arbitrary: fc.constantFrom(String(features), '999999999', '1000000000', '-1', '1.2.3', '0x1', ' 3 ', '', '4294967296', '0.999999999') },
  );
  return fc.oneof(
    { weight: 8, arbitrary: fc.array(id, { minLength: 1, maxLength: 8 }).map((ids) => ids.join(',')) },
    { weight: 2, arbitrary: fc.integer({ min: maxIds - 1, max: maxIds + 1 }).map((count) => sequentialIds(count, features)) },
    { weight: 1, arbitrary: fc.integer({ min: maxIds + 2, max: maxIds * 20 }).map((count) => sequentialIds(count, features)) },
    { weight: 1, arbitrary: fc.constantFrom(',', '0,', ',0', '0,,1', '0;1', '0 1') },
  );
}

const sequentialIds = (count: number, features: number) => Array.from({ length: count }, (_, i) => String(i % features)).join(',');

/**
 * CQL2 text over `file`'s fields: well-typed comparisons combined; when `hostile`, also
 * ill-typed and malformed ones, deep (near MAX_FILTER_DEPTH), long (near 4 KB), unknown fields.
 */
export function cqlFilter(file: GeneratedFile | undefined, hostile: boolean): fc.Arbitrary<string> {
  const fields = file && file.fields.length > 0 ? file.fields : ['NAME'];
  if (!hostile) return wellTypedFilter(file);
  const field = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...fields).chain(anyCase) },
    { weight: 1, arbitrary: fc.constantFrom('NOPE', '"NAME"', '__proto__', 'constructor', 'name_1') },
  );
  const literal = fc.oneof(
    fc.string({ maxLength: 12 }).map(quote),
    fc.constantFrom(...HOSTILE_TEXTS).map(quote),
    fc.integer().map(String),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
    fc.constantFrom('NULL', 'TRUE', 'false', "''", "'it''s'", '1e308', '-0'),
  );
  const operator = fc.constantFrom('=', '<>', '<', '>', '<=', '>=', '!=', '==');
  const comparison = fc.tuple(field, operator, literal).map(([name, op, value]) => `${name} ${op} ${value}`);
  const like = fc.tuple(field, fc.boolean(), fc.integer({ min: 0, max: MAX_LIKE_PATTERN_LENGTH + 20 }), fc.constantFrom('%', '_', 'a%', '%%_%')).map(
    ([name, not, length, piece]) => `${name} ${not ? 'NOT ' : ''}LIKE ${quote(piece.repeat(Math.ceil(length / piece.length)).slice(0, length))}`,
  );
  const inList = fc.tuple(field, fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: MAX_IN_LIST_ITEMS - 1, max: MAX_IN_LIST_ITEMS + 1 }))).map(
    ([name, count]) => `${name} IN (${Array.from({ length: count }, (_, i) => String(i)).join(',')})`,
  );
  const between = fc.tuple(field, literal, literal).map(([name, low, high]) => `${name} BETWEEN ${low} AND ${high}`);
  const isNull = fc.tuple(field, fc.boolean()).map(([name, not]) => `${name} IS ${not ? 'NOT ' : ''}NULL`);
  const atom = fc.oneof(comparison, like, isNull, between, inList);
  const { expression } = fc.letrec<{ expression: string }>((tie) => ({
    expression: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      atom,
      fc.tuple(tie('expression'), fc.constantFrom(' AND ', ' OR ', ' and '), tie('expression')).map(([a, op, b]) => `${a}${op}${b}`),
      tie('expression').map((inner) => `NOT (${inner})`),
      tie('expression').map((inner) => `(${inner})`),
    ),
  }));
  const deep = fc.tuple(fc.integer({ min: MAX_FILTER_DEPTH - 3, max: MAX_FILTER_DEPTH + 3 }), atom, fc.boolean()).map(([depth, inner, nots]) =>
    nots ? `${'NOT '.repeat(depth)}${inner}` : `${'('.repeat(depth)}${inner}${')'.repeat(depth)}`,
  );
  const long = fc.tuple(atom, fc.integer({ min: MAX_FILTER_LENGTH - 20, max: MAX_FILTER_LENGTH + 20 })).map(([inner, length]) => {
    let text = inner;
    while (text.length < length) text += ` OR ${inner}`;
    return text.slice(0, length);
  });
  const unbalanced = fc.constantFrom('(', ')', "NAME = 'x", 'NAME = ', 'AND', '((((', "NAME LIKE '%", 'NOT', 'NAME IN ()', 'NAME BETWEEN 1', ';DROP TABLE x');
  return fc.oneof({ weight: 8, arbitrary: expression }, { weight: 2, arbitrary: deep }, { weight: 1, arbitrary: long }, { weight: 1, arbitrary: unbalanced }, { weight: 1, arbitrary: hostileText });
}

/** Comparisons that fit each field's type, joined with AND and OR: filters a client writes. */
function wellTypedFilter(file: GeneratedFile | undefined): fc.Arbitrary<string> {
  const numeric = file?.numericFields ?? [];
  const text = (file?.fields ?? ['NAME']).filter((name) => !numeric.includes(name));
  const comparisons: fc.Arbitrary<string>[] = [];
  if (text.length > 0) {
    const name = fc.constantFrom(...text).chain(anyCase);
    comparisons.push(
      fc.tuple(name, fc.constantFrom('=', '<>', '<', '>='), fc.string({ maxLength: 8 })).map(([field, op, value]) => `${field} ${op} ${quote(value)}`),
      fc.tuple(name, fc.constantFrom('%', 'a%', '%1%', 'name%', '_%')).map(([field, pattern]) => `${field} LIKE ${quote(pattern)}`),
      fc.tuple(name, fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 5 })).map(([field, values]) => `${field} IN (${values.map(quote).join(', ')})`),
      name.map((field) => `${field} IS NOT NULL`),
    );
  }
  if (numeric.length > 0) {
    const name = fc.constantFrom(...numeric).chain(anyCase);
    comparisons.push(
      fc.tuple(name, fc.constantFrom('=', '<>', '<', '>', '<=', '>='), fc.integer({ min: -100_000, max: 100_000 })).map(([field, op, value]) => `${field} ${op} ${value}`),
      fc.tuple(name, fc.integer({ min: -100_000, max: 0 }), fc.integer({ min: 0, max: 100_000 })).map(([field, low, high]) => `${field} BETWEEN ${low} AND ${high}`),
    );
  }
  const comparison = fc.oneof(...comparisons);
  return fc.tuple(comparison, fc.array(fc.tuple(fc.constantFrom(' AND ', ' OR '), comparison), { maxLength: 3 })).map(([first, rest]) => first + rest.map(([op, next]) => op + next).join(''));
}

/** A CQL2 string literal: single quotes doubled. */
const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** `size` as 'height,width': ordinary and tiny; when `hostile`, at maxSize and past it, and malformed. */
export function sizeText(maxSize: number, hostile: boolean): fc.Arbitrary<string> {
  if (!hostile) return fc.tuple(fc.integer({ min: 1, max: 700 }), fc.integer({ min: 1, max: 700 })).map(([height, width]) => `${height},${width}`);
  const side = fc.oneof(
    { weight: 10, arbitrary: fc.integer({ min: 1, max: 700 }) },
    { weight: 1, arbitrary: fc.constantFrom(1, 2, maxSize - 1, maxSize, maxSize + 1, 999_999, 0) },
    { weight: 1, arbitrary: fc.integer({ min: 700, max: maxSize }) },
  );
  return fc.oneof(
    { weight: 12, arbitrary: fc.tuple(side, side, fc.constantFrom(',', ' , ', ',')).map(([height, width, comma]) => `${height}${comma}${width}`) },
    { weight: 1, arbitrary: fc.constantFrom('480', '480,640,1', 'x,y', '-1,5', '480 640', '1e3,1e3', '0480,0640', '4096,4096') },
  );
}

/** Colours in every form docs/decisions.md lists; when `hostile`, near misses too. */
export const colourText = (hostile: boolean): fc.Arbitrary<string> => (hostile ? fc.oneof(validColour, badColour) : validColour);

const validColour: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 0, max: 0xffffff }).map((n) => n.toString(16).padStart(6, '0')),
  fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, '0').toUpperCase()}`),
  fc.integer({ min: 0, max: 0xfff }).map((n) => `#${n.toString(16).padStart(3, '0')}`),
  fc.bigInt({ min: 0n, max: 0xffffffffn }).map((n) => `#${n.toString(16).padStart(8, '0')}`),
  fc.mixedCase(fc.constantFrom('red', 'Transparent', 'AliceBlue', 'rebeccapurple', 'grey')),
);

const badColour = fc.constantFrom('#GGGGGG', '#12345', 'rgb(1,2,3)', '#', '', 'redd', '#-12345');
