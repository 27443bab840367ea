/**
 * The format of a theme file (themes/*.json): a flat JSON object with the same names as
 * the images operation's style parameters, colours written as requests write them.
 *
 * This zod schema is also the format's documentation: `npm run theme-schema` turns it
 * (its input side, with every field's `.describe()` text) into the JSON Schema
 * themes/theme.schema.json, and each theme names that file in `"$schema"` so editors
 * complete and check it. After changing the schema, run the script again; a test fails
 * while the committed JSON Schema differs from what the script would write.
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

/**
 * The shape of a colour: a hex code, or a word that may be a colour name. parseColour
 * decides which words are names; the shape is what the JSON Schema can check as well.
 * No `i` flag: JSON Schema patterns have no flags.
 */
const COLOUR_SHAPE = /^\s*(#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})|[A-Za-z]+)\s*$/;

const COLOUR_FORMS =
  "A colour: '#RRGGBB', '#RGB' or '#AARRGGBB' (alpha first, 00 transparent to FF opaque, as .NET and Bing Maps " +
  "write it; the '#' may be left out), or a CSS colour name in any letter case, 'Transparent' included.";

function notAColour(issue: IssueInput): string {
  return `not a colour: '${String(issue.input)}'`;
}

const colour = z
  .string({ error: mustBe('a colour code or name, as a string') })
  .regex(COLOUR_SHAPE, { error: notAColour })
  .meta({ examples: ['#3A7BC8', '#80FFFFFF', 'RoyalBlue', 'Transparent'] })
  .transform((text, context) => {
    const parsed = parseColour(text);
    if (parsed === undefined) {
      context.issues.push({ code: 'custom', message: notAColour({ input: text }), input: text });
      return z.NEVER;
    }
    return parsed;
  });

function colourField(what: string) {
  return colour.optional().describe(`${what} ${COLOUR_FORMS}`);
}

function integer(min: number, max: number) {
  const error = mustBe(`an integer from ${min} to ${max}`);
  return z.int({ error }).min(min, { error }).max(max, { error });
}

function number(min: number, max: number, rule: string) {
  const error = mustBe(rule);
  return z.number({ error }).min(min, { error }).max(max, { error });
}

/** Introduces the images operation's default for a setting. */
const UNSET = "Default when no theme in the 'extends' chain sets it:";

export const themeFileSchema = z
  .object({
    $schema: z
      .string({ error: mustBe('a string') })
      .optional()
      .describe(
        "Where editors find the JSON Schema of theme files, e.g. './theme.schema.json' next to the built-in themes. " +
          'The service ignores it.',
      ),
    name: themeName.describe(
      "The theme's name, as requests give it in the 'theme' parameter (matched in any letter case). " +
        "Must equal the file name without '.json', letter case aside. Up to 64 letters, digits, '_' or '-', starting with a letter.",
    ),
    extends: themeName
      .optional()
      .describe(
        'Name of the theme whose settings this one starts from (any letter case); the settings given here win. ' +
          'Themes may extend themes that extend others, but not in a cycle.',
      ),
    lineColor: colourField(`Colour of outlines, lines and point-symbol outlines. ${UNSET} red.`),
    lineWidth: integer(0, 100)
      .optional()
      .describe(`Width of outlines and lines in pixels, an integer from 0 (none) to 100. ${UNSET} 2.`),
    fillColor: colourField(`Colour inside polygons and point symbols. ${UNSET} LightGray.`),
    fillOpacity: number(0, 1, 'a number from 0 to 1')
      .optional()
      .describe(`Multiplies fillColor's alpha: a number from 0 (fill invisible) to 1 (as fillColor says). ${UNSET} 1.`),
    pointSize: number(0.5, 100, 'a number from 0.5 to 100 (pixels of point-symbol radius)')
      .optional()
      .describe(`Radius of point symbols in pixels, a number from 0.5 to 100. ${UNSET} 5.`),
    bgColor1: colourField(
      `Background colour; with bgColor2, the colour the gradient starts from. ${UNSET} transparent.`,
    ),
    bgColor2: colourField(
      'With it, the background is a linear gradient from bgColor1 (transparent when left out) to this colour, ' +
        'along bgAngle, corner to corner.',
    ),
    bgAngle: integer(0, 360)
      .optional()
      .describe(
        'Direction of the background gradient in degrees, an integer from 0 to 360, clockwise from left-to-right: ' +
          `0 runs left to right, 90 top to bottom. Used only when bgColor1 and bgColor2 are both set. ${UNSET} 0.`,
      ),
    grid: z
      .literal([0, 1], { error: mustBe('0 or 1') })
      .transform((flag) => flag === 1)
      .optional()
      .describe(`1 draws a grid of one-pixel lines over the background, 0 does not. ${UNSET} 0.`),
    gridColor: colourField(`Colour of the grid lines (when grid is 1). ${UNSET} LightGray.`),
    gridSpace: integer(2, 10_000)
      .optional()
      .describe(`Distance between grid lines in pixels, an integer from 2 to 10000 (when grid is 1). ${UNSET} 20.`),
  })
  .strict()
  .transform(({ $schema: _ignored, ...theme }) => theme)
  .meta({
    title: 'shapeshot theme',
    description:
      'A theme file of shapeshot (themes/<name>.json): a named set of style settings for the images operation, ' +
      "chosen with its 'theme' parameter. Settings left out come from the theme named in 'extends', else from the operation's defaults.",
  });

/** A theme file's content after validation; `extends` not yet resolved, `$schema` dropped. */
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
