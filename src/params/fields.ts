/**
 * The builders every query parameter is made with (ARCHITECTURE.md, "Where a change goes"): one
 * set of words per kind of value for its check, its 400 and its entry in the API description, so
 * that the three never disagree. A new builder only for a new kind of value.
 */
import { z } from 'zod';
import type { Rgba } from '../svg/style.ts';
import { parseColour } from './colour.ts';
import { MAX_FILTER_LENGTH } from '../filter/index.ts';
import { parseFidList, type FeatureRef } from './fid.ts';

/**
 * What the API description says a parameter takes, as JSON Schema: its type as a client
 * writes it (an integer, a choice), beyond the string every query value is.
 */
export type ParameterSchema = Record<string, unknown>;

/**
 * One query parameter: a string parsed into a value. The issue message is what the value
 * must be; the validator hook turns it into "Parameter 'x' must be ...; got '...'.". The
 * same words describe it in the API description (openapi/), with `schema` for its type.
 */
export function param<T>(expected: string, parse: (raw: string) => T | undefined, schema: ParameterSchema = { type: 'string' }) {
  return z.string().meta({ ...schema, description: `Must be ${expected}.` }).transform((raw, ctx) => {
    const value = parse(raw.trim());
    if (value === undefined) {
      ctx.addIssue({ code: 'custom', message: `must be ${expected}`, input: raw });
      return z.NEVER;
    }
    return value;
  });
}

export function integerFrom(min: number, max = Number.MAX_SAFE_INTEGER): (raw: string) => number | undefined {
  return (raw) => {
    if (!/^[+-]?\d{1,16}$/.test(raw)) return undefined;
    const value = Number(raw);
    return value >= min && value <= max ? value : undefined;
  };
}

/**
 * `parameter`, optional, with the default the API description shows; the transform that
 * reads the query applies it (a test checks that sending it changes nothing).
 */
export function withDefault<P extends z.ZodPipe<z.ZodType, z.ZodType>>(parameter: P, shown: string | number) {
  z.globalRegistry.add(parameter.in, { ...z.globalRegistry.get(parameter.in), default: shown });
  return parameter.optional();
}

export const integerParam = (min: number, max?: number) =>
  param(max === undefined ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`, integerFrom(min, max), {
    type: 'integer',
    minimum: min,
    ...(max === undefined ? {} : { maximum: max }),
  });

export const switchParam = () =>
  param("'0' or '1'", (raw) => (raw === '0' ? false : raw === '1' ? true : undefined), { type: 'integer', enum: [0, 1] });

export const colourParam = () =>
  param<Rgba>("a colour: '#RRGGBB', 'RRGGBB', '#RGB', '#AARRGGBB' or a colour name", parseColour);

export const nonNegativeNumberParam = () =>
  param('a number of at least 0', (raw) => {
    // Each part begins with its own kind of character, so matching takes linear time
    // (the form \d+\.?\d* would take quadratic time on a long run of digits).
    if (!/^\+?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(raw)) return undefined;
    const value = Number(raw);
    return Number.isFinite(value) ? value : undefined;
  }, { type: 'number', minimum: 0 });

/** A case-insensitive choice; the value is the name as the list spells it. */
export function choiceParam<T extends string>(choices: readonly T[]) {
  const byLowerCase = new Map(choices.map((choice) => [choice.toLowerCase(), choice]));
  return param(`one of ${choices.join(', ')}`, (raw) => byLowerCase.get(raw.toLowerCase()), { type: 'string', enum: [...choices] });
}

export interface ImageSize {
  height: number;
  width: number;
}

export const sizeParam = (maxSize: number) =>
  param<ImageSize>(`two integers 'height,width' from 1 to ${maxSize}`, (raw) => {
    const match = /^(\d{1,6})\s*,\s*(\d{1,6})$/.exec(raw);
    if (!match) return undefined;
    const [height, width] = [Number(match[1]), Number(match[2])];
    const inRange = (n: number) => n >= 1 && n <= maxSize;
    return inRange(height) && inRange(width) ? { height, width } : undefined;
  }, { type: 'string', pattern: '^\\d{1,6}\\s*,\\s*\\d{1,6}$', examples: ['480,640'] });

export const fidParam = (maxIds: number) =>
  param<FeatureRef[]>(
    `a comma-separated list of at most ${maxIds} feature ids, each an integer or 'parent.child'`,
    (raw) => {
      const refs = parseFidList(raw);
      return refs && refs.length <= maxIds ? refs : undefined;
    },
    { type: 'string', pattern: '^\\s*\\d{1,9}(\\.\\d{1,9})?\\s*(,\\s*\\d{1,9}(\\.\\d{1,9})?\\s*)*$', examples: ['0,5,12.2'] },
  );

/** Most names hotSpotFields may list. */
export const MAX_HOT_SPOT_FIELDS = 50;

/** Comma-separated field names (checked against the shapefile's fields where it is open). */
export const fieldListParam = () =>
  param(`a comma-separated list of at most ${MAX_HOT_SPOT_FIELDS} field names`, (raw) => {
    const names = raw.split(',').map((name) => name.trim());
    return names.length <= MAX_HOT_SPOT_FIELDS && names.every((name) => name.length > 0 && name.length <= 64) ? names : undefined;
  }, { type: 'string', examples: ['NAME,CODE'] });

/** A CQL2 text filter (parsed where the shapefile's fields are known). */
export const whereParam = () =>
  param(
    `a CQL2 text filter of at most ${MAX_FILTER_LENGTH} characters`,
    (raw) => (raw.length > 0 && raw.length <= MAX_FILTER_LENGTH ? raw : undefined),
    { type: 'string', maxLength: MAX_FILTER_LENGTH, examples: ["provincie = 'Utrecht' AND inwoners > 10000"] },
  );

export const requiredText = (expected: string) =>
  param(expected, (raw) => (raw.length > 0 ? raw : undefined));

/**
 * What images answer in: the envelope (xml, json), or the first image alone (png; svg, the
 * document the PNG is rasterized from).
 */
export const IMAGE_FORMATS = ['xml', 'json', 'png', 'svg'] as const;
/** What maps answer in: the envelope, or the map alone (png; jpeg, far smaller over aerial imagery). */
export const MAP_FORMATS = ['xml', 'json', 'png', 'jpeg'] as const;
/** Every format some operation answers in: errors answer in JSON for all but xml. */
export const FORMATS: readonly Format[] = [...new Set([...IMAGE_FORMATS, ...MAP_FORMATS])];
export type Format = (typeof IMAGE_FORMATS)[number] | (typeof MAP_FORMATS)[number];
/** The formats that answer with the first image's bytes alone (our additions, for <img src>), and its type. */
export const IMAGE_CONTENT_TYPES: Partial<Record<Format, string>> = { png: 'image/png', svg: 'image/svg+xml', jpeg: 'image/jpeg' };

/** Real pixels per CSS pixel (`scale`): screens with 2 or 3 device pixels per CSS pixel. */
export const MAX_SCALE = 3;

/**
 * A reader of `fields` that validates a parameter only when asked for it: for the parameters
 * another turns off (bgAngle without both colours, classes without styleBy), which
 * docs/decisions.md leaves unvalidated as it leaves them ignored. Issues join the query's own.
 */
export function givenReader<F extends Record<string, z.ZodType>>(fields: F, query: Record<string, string | undefined>, ctx: z.core.$RefinementCtx) {
  return <K extends keyof F & string>(name: K): z.output<F[K]> | undefined => {
    const raw = query[name];
    if (raw === undefined) return undefined;
    const result = fields[name].safeParse(raw);
    if (result.success) return result.data as z.output<F[K]>;
    for (const issue of result.error.issues) ctx.addIssue({ ...issue, code: 'custom', path: [name], input: raw });
    return undefined;
  };
}
