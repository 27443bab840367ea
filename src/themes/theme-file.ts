/**
 * The format of a theme file (themes/*.json): a JSON object with the same names as the
 * images operation's style parameters, colours written as requests write them, and the
 * thematic settings (`classify`, `rules`, `labels`; docs/decisions.md, "Thematic styling").
 *
 * This zod schema is also the format's documentation: `npm run theme-schema` turns it
 * (its input side, with every field's `.describe()` text) into the JSON Schema
 * themes/theme.schema.json, and each theme names that file in `"$schema"` so editors
 * complete and check it. After changing the schema, run the script again; a test fails
 * while the committed JSON Schema differs from what the script would write.
 */
import { z } from 'zod';
import { checkFilterSyntax, MAX_FILTER_LENGTH } from '../filter/index.ts';
import { parseColour } from '../params/colour.ts';
import { LABEL_SIZES, MAX_FIELD_NAME, THEMATIC_DEFAULTS } from '../params/thematic.ts';
import { CLASSIFY_METHODS, MAX_CLASSES, MIN_CLASSES } from '../thematic/methods.ts';
import { PALETTE_NAMES, paletteNamed } from '../thematic/palettes.ts';

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

function zeroOrOne(what: string) {
  return z
    .literal([0, 1], { error: mustBe('0 or 1') })
    .transform((flag) => flag === 1)
    .optional()
    .describe(what);
}

/** Introduces the images operation's default for a setting. */
const UNSET = "Default when no theme in the 'extends' chain sets it:";

/** The most rules a theme may hold: every feature is tried against them in order. */
export const MAX_THEME_RULES = 64;
/** The longest text a rule's label may have in the legend. */
export const MAX_RULE_LABEL_LENGTH = 100;
/** A `.dbf` field, by name in any letter case, as the parameters take it; whether the file has it is checked per request. */
const fieldName = z
  .string({ error: mustBe('a field name, as a string') })
  .min(1, { error: mustBe(`a field name of 1 to ${MAX_FIELD_NAME} characters`) })
  .max(MAX_FIELD_NAME, { error: mustBe(`a field name of 1 to ${MAX_FIELD_NAME} characters`) });

const palette = z
  .string({ error: mustBe('a palette name, as a string') })
  .meta({ examples: ['YlOrRd', 'Blues', 'Set2', 'viridis'] })
  .transform((text, context) => {
    const name = paletteNamed(text.trim());
    if (name === undefined) {
      const message = `not a palette: ${JSON.stringify(text)}; the palettes are ${PALETTE_NAMES.join(', ')}`;
      context.issues.push({ code: 'custom', message, input: text });
      return z.NEVER;
    }
    return name;
  });

/** The parser's message, less its "Invalid filter: " opening, which reads oddly after a field's name. */
function filterProblem(error: unknown): string {
  return (error as Error).message.replace(/^Invalid filter: /, '');
}

const ruleFilter = z
  .string({ error: mustBe('CQL2 text, as a string') })
  .max(MAX_FILTER_LENGTH, { error: mustBe(`CQL2 text of at most ${MAX_FILTER_LENGTH} characters`) })
  .superRefine((text, context) => {
    try {
      checkFilterSyntax(text);
    } catch (error) {
      context.addIssue({ code: 'custom', message: `not a valid CQL2 text filter: ${filterProblem(error)}`, input: text });
    }
  });

const classifySchema = z
  .object({
    field: fieldName.describe("The .dbf field whose values give each feature its class (any letter case), e.g. 'POP_EST'."),
    method: z
      .enum(CLASSIFY_METHODS, { error: mustBe(`one of ${CLASSIFY_METHODS.join(', ')}`) })
      .optional()
      .describe(
        "'categories' (each distinct value its own colour), 'quantile', 'equal' (equal intervals) or 'jenks' (natural breaks). " +
          'Default: categories for text, logical and date fields, quantile for numbers.',
      ),
    classes: integer(MIN_CLASSES, MAX_CLASSES)
      .optional()
      .describe(`How many classes the numeric methods make, an integer from ${MIN_CLASSES} to ${MAX_CLASSES}. Default 5.`),
    palette: palette
      .optional()
      .describe(
        `The colours, by d3-scale-chromatic's name for them, in any letter case: ${PALETTE_NAMES.join(', ')}. ` +
          'Default: YlOrRd for numeric classes, Set2, then Set3, then Dark2 for categories.',
      ),
    reversePalette: zeroOrOne('1 runs the palette backwards, 0 as it is. Default 0.'),
    nullColor: colourField('Colour of the features without a value. Default #CCCCCC.'),
  })
  .strict()
  .describe(
    "Colours each feature by a field's class, as the 'styleBy', 'classify', 'classes', 'palette', 'reversePalette' and 'nullColor' " +
      "parameters do (they override each setting). Outlines keep the lineColor and lineWidth the theme sets; what it leaves " +
      "unset recedes (half a pixel in a darker shade of each class's colour). Not together with 'rules'.",
  );

const ruleSchema = z
  .object({
    filter: ruleFilter
      .optional()
      .describe(
        `Which features the rule styles: CQL2 text as the 'where' parameter takes it, at most ${MAX_FILTER_LENGTH} characters, ` +
          "e.g. \"REGION = 'Europe'\". Checked for syntax when the themes load, against each file's fields per request. " +
          'Without a filter the rule matches every feature: the default rule, which comes last.',
      ),
    fillColor: colourField('Fill of the features the rule styles; the theme\'s fillColor when left out.'),
    lineColor: colourField(
      "Outline or line colour of the features the rule styles; the theme's lineColor when left out, and when the theme sets none, " +
        "outlines recede to a darker shade of the rule's fill.",
    ),
    lineWidth: integer(0, 100)
      .optional()
      .describe("Outline or line width in pixels, an integer from 0 to 100; the theme's lineWidth when left out, else half a pixel for outlines."),
    label: z
      .string({ error: mustBe('a string') })
      .min(1, { error: mustBe(`text of 1 to ${MAX_RULE_LABEL_LENGTH} characters`) })
      .max(MAX_RULE_LABEL_LENGTH, { error: mustBe(`text of 1 to ${MAX_RULE_LABEL_LENGTH} characters`) })
      .optional()
      .describe(`The rule's name in the legend, up to ${MAX_RULE_LABEL_LENGTH} characters; its filter's text when left out.`),
  })
  .strict();

const rulesSchema = z
  .array(ruleSchema, { error: mustBe('a list of rules') })
  .min(1, { error: mustBe(`a list of 1 to ${MAX_THEME_RULES} rules`) })
  .max(MAX_THEME_RULES, { error: mustBe(`a list of 1 to ${MAX_THEME_RULES} rules`) })
  .superRefine((rules, context) => {
    // A rule after the default one could never match: almost surely a rule put in the wrong place.
    const defaultRule = rules.findIndex((rule) => rule.filter === undefined);
    if (defaultRule !== -1 && defaultRule < rules.length - 1) {
      context.addIssue({
        code: 'custom',
        path: [defaultRule + 1],
        message: `can never match: rule ${defaultRule + 1} has no filter and styles every feature left; put the default rule last`,
        input: rules[defaultRule + 1],
      });
    }
  })
  .describe(
    'Styles each feature by the first rule whose filter it matches, in order, as MapServer\'s CLASS EXPRESSION does; ' +
      `at most ${MAX_THEME_RULES} rules. A feature that no rule matches keeps the theme's style. Each rule is a class of the legend. ` +
      "Not together with 'classify'.",
  );

const labelsSchema = z
  .object({
    field: fieldName.describe("The .dbf field whose value labels each feature (any letter case), e.g. 'NAME'."),
    size: integer(LABEL_SIZES.min, LABEL_SIZES.max)
      .optional()
      .describe(`Text size in CSS pixels, an integer from ${LABEL_SIZES.min} to ${LABEL_SIZES.max}. Default ${THEMATIC_DEFAULTS.labelSize}.`),
    color: colourField('Colour of the text. Default #222222.'),
    halo: colourField('Colour of the halo around the text, for legibility. Default #FFFFFF.'),
  })
  .strict()
  .describe(
    "Labels each feature with a field's value, as the 'labelField', 'labelSize', 'labelColor' and 'labelHalo' parameters do " +
      '(they override each setting).',
  );

/** How the schema's description says what 'extends' does with the thematic settings. */
const EXTENDS_THEMATIC =
  "A theme's 'classify' or 'rules' replaces the colouring of the theme it extends wholesale (both of them), and its 'labels' " +
  'the labels: thematic settings are not merged field by field.';

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
          `Themes may extend themes that extend others, but not in a cycle. ${EXTENDS_THEMATIC}`,
      ),
    lineColor: colourField(`Colour of outlines, lines and point-symbol outlines. ${UNSET} red; the outlines of features coloured by 'classify' or 'rules' recede instead.`),
    lineWidth: integer(0, 100)
      .optional()
      .describe(`Width of outlines and lines in pixels, an integer from 0 (none) to 100. ${UNSET} 2; half a pixel for the outlines of features coloured by 'classify' or 'rules'.`),
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
    grid: zeroOrOne(`1 draws a grid of one-pixel lines over the background, 0 does not. ${UNSET} 0.`),
    gridColor: colourField(`Colour of the grid lines (when grid is 1). ${UNSET} LightGray.`),
    gridSpace: integer(2, 10_000)
      .optional()
      .describe(`Distance between grid lines in pixels, an integer from 2 to 10000 (when grid is 1). ${UNSET} 20.`),
    classify: classifySchema.optional(),
    rules: rulesSchema.optional(),
    labels: labelsSchema.optional(),
  })
  .strict()
  .superRefine((theme, context) => {
    if (theme.classify !== undefined && theme.rules !== undefined) {
      context.addIssue({ code: 'custom', path: ['rules'], message: "cannot be set together with 'classify': a feature's colour comes from one or the other" });
    }
  })
  .transform(({ $schema: _ignored, ...theme }) => theme)
  .meta({
    title: 'shapeshot theme',
    description:
      'A theme file of shapeshot (themes/<name>.json): a named set of style settings for the images operation, ' +
      "chosen with its 'theme' parameter, and optionally colours by attribute ('classify' or 'rules') and labels ('labels'). " +
      "Settings left out come from the theme named in 'extends', else from the operation's defaults. " +
      EXTENDS_THEMATIC,
  });

/** "rule 3, " for a problem inside `rules[2]`: people count rules from 1, paths from 0. */
function ruleOf(path: readonly PropertyKey[]): string {
  return path[0] === 'rules' && typeof path[1] === 'number' ? `rule ${path[1] + 1}, ` : '';
}

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
      return issue.keys.map((key) => `${ruleOf(issue.path)}field '${[...issue.path, key].join('.')}': unknown field`).join('; ');
    }
    if (issue.path.length === 0) return `must be a JSON object of theme settings; ${issue.message}`;
    return `${ruleOf(issue.path)}field '${issue.path.join('.')}': ${issue.message}`;
  });
  throw new Error(`${fileLabel}: ${problems.join('; ')}`);
}
