/**
 * The thematic parameters (docs/decisions.md, "Thematic styling"): colours by a field's classes,
 * labels by a field, a legend; both operations take them, and on images a theme may carry
 * the same, which the parameters override one by one.
 */
import type { z } from 'zod';
import type { Rgba } from '../svg/style.ts';
import type { NamedOutline } from '../thematic/class-outline.ts';
import { CLASSIFY_METHODS, DEFAULT_CLASSES, MAX_CLASSES, MIN_CLASSES, type ClassifyMethod } from '../thematic/methods.ts';
import { PALETTE_NAMES } from '../thematic/palettes.ts';
import { LEGEND_POSITIONS, type LegendPosition } from '../legend/legend-svg.ts';
import { parseColour } from './colour.ts';
import { choiceParam, colourParam, givenReader, integerParam, param, switchParam, withDefault } from './fields.ts';
import { resolveStyle } from './style.ts';
import type { Theme, ThemeRule } from './theme.ts';

/** Longer than any `.dbf` field name (11 bytes), short enough to quote in a message. */
export const MAX_FIELD_NAME = 64;
/** labelSize's range, CSS pixels. */
export const LABEL_SIZES = { min: 6, max: 48 } as const;

const fieldNameParam = () =>
  param(`a field name of 1 to ${MAX_FIELD_NAME} characters`, (raw) => (raw.length > 0 && raw.length <= MAX_FIELD_NAME ? raw : undefined), {
    type: 'string',
    maxLength: MAX_FIELD_NAME,
    examples: ['REGION'],
  });

const DEFAULT_COLOURS = { nullColor: '#CCCCCC', labelColor: '#222222', labelHalo: '#FFFFFF' } as const;

export const THEMATIC_DEFAULTS = {
  nullColor: parseColour(DEFAULT_COLOURS.nullColor)!,
  labelSize: 12,
  labelColor: parseColour(DEFAULT_COLOURS.labelColor)!,
  labelHalo: parseColour(DEFAULT_COLOURS.labelHalo)!,
};

/** Colours by class; names lower-cased. The legend route takes these alone. */
export const colouringFields = {
  styleby: fieldNameParam().optional(),
  classify: choiceParam(CLASSIFY_METHODS).optional(),
  classes: withDefault(integerParam(MIN_CLASSES, MAX_CLASSES), DEFAULT_CLASSES),
  palette: choiceParam(PALETTE_NAMES).optional(),
  reversepalette: withDefault(switchParam(), 0),
  nullcolor: withDefault(colourParam(), DEFAULT_COLOURS.nullColor),
};

const labelFields = {
  labelfield: fieldNameParam().optional(),
  labelsize: withDefault(integerParam(LABEL_SIZES.min, LABEL_SIZES.max), THEMATIC_DEFAULTS.labelSize),
  labelcolor: withDefault(colourParam(), DEFAULT_COLOURS.labelColor),
  labelhalo: withDefault(colourParam(), DEFAULT_COLOURS.labelHalo),
};

const legendFields = {
  legend: withDefault(switchParam(), 0),
  legendposition: withDefault(choiceParam(LEGEND_POSITIONS), 'bottomright'),
};

/**
 * Every thematic parameter of images and maps, names lower-cased; the API description lists
 * them from here. They are read apart from the operations' schemas (readThematic), so that
 * one another turns off is not validated, as docs/decisions.md has it.
 */
export const thematicFields = { ...colouringFields, ...labelFields, ...legendFields };

type Query = Record<string, string | undefined>;
type Context = z.core.$RefinementCtx;

/** Colours by a field's classes: what the `classify` job computes and the legend shows. */
export interface ClassColouring {
  kind: 'classes';
  /** As the request or theme spells it; the worker resolves it against the file's fields. */
  field: string;
  /** Undefined: by the field's type (categories for text, logical and date; quantile for numbers). */
  method?: ClassifyMethod;
  classes: number;
  /** Undefined: YlOrRd for numeric classes, Set2, then Set3, then Dark2 for categories. */
  palette?: string;
  reversePalette: boolean;
  nullColor: Rgba;
}

/** Colours by a theme's rules: the first whose filter matches. */
export interface RuleColouring {
  kind: 'rules';
  /** The theme's name, for messages about its rules. */
  theme: string;
  rules: ThemeRule[];
  /** The theme's fill: a rule that sets none fills with it, and the legend shows it so. */
  plainFill: Rgba;
}

export type Colouring = ClassColouring | RuleColouring;

export interface LabelSettings {
  field: string;
  size: number;
  color: Rgba;
  halo: Rgba;
}

/** What a request asks of thematic styling; every part optional. */
export interface Thematic {
  colouring?: Colouring;
  /** With a colouring: the outline parts the request or its theme named; those left out recede (docs/api.md, "Outlines"). */
  outline?: NamedOutline;
  labels?: LabelSettings;
  /** Drawn into the picture; only with a colouring (there is nothing to explain without one). */
  legend?: { position: LegendPosition };
}

/**
 * The thematic settings of a request: `styleBy` (or the theme's `classify`) colours by
 * classes, else the theme's `rules` colour by rule; each parameter overrides its theme
 * setting. A parameter that has nothing to act on (`classes` without a colouring, `labelSize`
 * without labels, `legendPosition` without `legend=1`) is neither read nor validated.
 * `named` is the style the operation read (its parameters, or its theme's): a colouring keeps
 * the outline parts it names.
 */
export function readThematic(query: Query, ctx: Context, theme: Theme | undefined, named: NamedOutline): Thematic {
  const colouring = readColouring(query, ctx, theme);
  const labels = readLabels(query, ctx, theme);
  const read = givenReader(legendFields, query, ctx);
  const legend = colouring && read('legend') ? { position: read('legendposition') ?? 'bottomright' } : undefined;
  const outline = { ...(named.lineColor === undefined ? {} : { lineColor: named.lineColor }), ...(named.lineWidth === undefined ? {} : { lineWidth: named.lineWidth }) };
  return { ...(colouring ? { colouring, outline } : {}), ...(labels ? { labels } : {}), ...(legend ? { legend } : {}) };
}

/** The request's colouring (classes, or the theme's rules); undefined for one style. */
export function readColouring(query: Query, ctx: Context, theme: Theme | undefined): Colouring | undefined {
  const read = givenReader(colouringFields, query, ctx);
  const themed = theme?.classify;
  const field = read('styleby') ?? themed?.field;
  if (field === undefined) return ruleColouring(theme);
  const method = read('classify') ?? themed?.method;
  const palette = read('palette') ?? themed?.palette;
  return {
    kind: 'classes',
    field,
    ...(method ? { method } : {}),
    classes: read('classes') ?? themed?.classes ?? DEFAULT_CLASSES,
    ...(palette ? { palette } : {}),
    reversePalette: read('reversepalette') ?? themed?.reversePalette ?? false,
    nullColor: read('nullcolor') ?? themed?.nullColor ?? THEMATIC_DEFAULTS.nullColor,
  };
}

function ruleColouring(theme: Theme | undefined): RuleColouring | undefined {
  if (!theme?.rules?.length) return undefined;
  return { kind: 'rules', theme: theme.name, rules: theme.rules, plainFill: resolveStyle(theme.style).fillColor };
}

function readLabels(query: Query, ctx: Context, theme: Theme | undefined): LabelSettings | undefined {
  const read = givenReader(labelFields, query, ctx);
  const themed = theme?.labels;
  const field = read('labelfield') ?? themed?.field;
  if (field === undefined) return undefined;
  return {
    field,
    size: read('labelsize') ?? themed?.size ?? THEMATIC_DEFAULTS.labelSize,
    color: read('labelcolor') ?? themed?.color ?? THEMATIC_DEFAULTS.labelColor,
    halo: read('labelhalo') ?? themed?.halo ?? THEMATIC_DEFAULTS.labelHalo,
  };
}
