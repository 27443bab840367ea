/**
 * The format of a theme file (themes/*.json): a flat JSON object with the same names as
 * the images operation's style parameters, colours written as requests write them.
 */
import { z } from 'zod';
import { parseColour } from '../params/colour.ts';

type IssueInput = { input?: unknown };

function got(issue: IssueInput): string {
  return issue.input === undefined ? 'nothing' : JSON.stringify(issue.input);
}

function mustBe(rule: string) {
  return (issue: IssueInput) => `must be ${rule}; got ${got(issue)}`;
}

const themeName = z
  .string({ error: mustBe('a string') })
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, {
    error: mustBe("a name of up to 64 letters, digits, '_' or '-', starting with a letter"),
  });

const colour = z.string({ error: mustBe('a colour code or name, as a string') }).transform((text, context) => {
  const parsed = parseColour(text);
  if (parsed === undefined) {
    context.issues.push({ code: 'custom', message: `not a colour: '${text}'`, input: text });
    return z.NEVER;
  }
  return parsed;
});

function integer(min: number, max: number) {
  const rule = `an integer from ${min} to ${max}`;
  return z
    .number({ error: mustBe(rule) })
    .refine((value) => Number.isInteger(value) && value >= min && value <= max, { error: mustBe(rule) });
}

function number(min: number, max: number, rule: string) {
  return z.number({ error: mustBe(rule) }).refine((value) => value >= min && value <= max, { error: mustBe(rule) });
}

export const themeFileSchema = z
  .object({
    name: themeName,
    /** Name of the theme whose settings this one starts from. */
    extends: themeName.optional(),
    lineColor: colour.optional(),
    lineWidth: integer(0, 100).optional(),
    fillColor: colour.optional(),
    fillOpacity: number(0, 1, 'a number from 0 to 1').optional(),
    pointSize: number(0.5, 100, 'a number from 0.5 to 100 (pixels of point-symbol radius)').optional(),
    bgColor1: colour.optional(),
    bgColor2: colour.optional(),
    bgAngle: integer(0, 360).optional(),
    grid: z
      .union([z.literal(0), z.literal(1)], { error: mustBe('0 or 1') })
      .transform((flag) => flag === 1)
      .optional(),
    gridColor: colour.optional(),
    gridSpace: integer(2, 10_000).optional(),
  })
  .strict();

/** A theme file's content after validation; `extends` not yet resolved. */
export type ThemeFile = z.output<typeof themeFileSchema>;

/**
 * Validates a parsed theme file. Throws an Error whose message starts with `fileLabel`
 * and names each offending field.
 */
export function parseThemeFile(content: unknown, fileLabel: string): ThemeFile {
  const result = themeFileSchema.safeParse(content);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => `field '${key}': unknown field`).join('; ');
    }
    if (issue.path.length === 0) return `must be a JSON object of theme settings; ${issue.message}`;
    return `field '${issue.path.join('.')}': ${issue.message}`;
  });
  throw new Error(`${fileLabel}: ${problems.join('; ')}`);
}

