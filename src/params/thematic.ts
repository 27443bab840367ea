/**
 * The thematic parameters (decisions.md, "Thematic styling"): colours by a field's classes,
 * labels by a field, a legend; both operations take them, and on images a theme may carry
 * the same, which the parameters override one by one.
 */
import type { z } from 'zod';
import type { Rgba } from '../svg/style.ts';
import { CLASSIFY_METHODS, DEFAULT_CLASSES, MAX_CLASSES, MIN_CLASSES, type ClassifyMethod } from '../thematic/methods.ts';
import { PALETTE_NAMES } from '../thematic/palettes.ts';
import { LEGEND_POSITIONS, type LegendPosition } from '../legend/legend-svg.ts';
import { choiceParam, colourParam, integerParam, param, switchParam, withDefault } from './fields.ts';
import { resolveStyle } from './style.ts';
import type { Theme, ThemeRule } from './theme.ts';


/** Longer than any `.dbf` field name (11 bytes), short enough to quote in a message. */
const MAX_FIELD_NAME = 64;

const fieldNameParam = () =>
  param(`a field name of 1 to ${MAX_FIELD_NAME} characters`, (raw) => (raw.length > 0 && raw.length <= MAX_FIELD_NAME ? raw : undefined), {
    type: 'string',
    maxLength: MAX_FIELD_NAME,
    examples: ['REGION'],
  });

export const THEMATIC_DEFAULTS = {
  nullColor: { r: 0xcc, g: 0xcc, b: 0xcc, a: 1 },
  labelSize: 12,
  labelColor: { r: 0x22, g: 0x22, b: 0x22, a: 1 },
  labelHalo: { r: 0xff, g: 0xff, b: 0xff, a: 1 },
} as const;

/** The parameters, names lower-cased; the API description lists them from here. */
export const thematicFields = {
  styleby: fieldNameParam().optional(),
  classify: choiceParam(CLASSIFY_METHODS).optional(),
  classes: withDefault(integerParam(MIN_CLASSES, MAX_CLASSES), DEFAULT_CLASSES),
  palette: choiceParam(PALETTE_NAMES).optional(),
  reversepalette: withDefault(switchParam(), 0),
  nullcolor: withDefault(colourParam(), '#CCCCCC'),
  labelfield: fieldNameParam().optional(),
  labelsize: withDefault(integerParam(6, 48), THEMATIC_DEFAULTS.labelSize),
  labelcolor: withDefault(colourParam(), '#222222'),
  labelhalo: withDefault(colourParam(), '#FFFFFF'),
  legend: withDefault(switchParam(), 0),
  legendposition: withDefault(choiceParam(LEGEND_POSITIONS), 'bottomright'),
};

type ThematicQuery = { [K in keyof typeof thematicFields]?: z.output<(typeof thematicFields)[K]> };

/** Colours by a field's classes: what the `classify` job computes and the legend shows. */
export interface ClassColouring {
  kind: 'classes';
  /** As the request or theme spells it; the worker resolves it against the file's fields. */
  field: string;
  /** Undefined: by the field's type (categories for text, logical and date; quantile for numbers). */
  method?: ClassifyMethod;
  classes: number;
  /** Undefined: YlOrRd for numeric classes, Set2 then Set3 for categories. */
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
  labels?: LabelSettings;
  /** Drawn into the picture; only with a colouring (there is nothing to explain without one). */
  legend?: { position: LegendPosition };
}

/**
 * The thematic settings of a request: `styleBy` (or the theme's `classify`) colours by
 * classes, else the theme's `rules` colour by rule; each parameter overrides its theme
 * setting. A parameter that has nothing to act on (`classes` without a colouring, `legend`
 * without one) is ignored, as decisions.md ignores a parameter another turns off.
 */
export function readThematic(query: ThematicQuery, theme: Theme | undefined): Thematic {
  const colouring = classColouring(query, theme) ?? ruleColouring(theme);
  const labels = labelSettings(query, theme);
  return {
    ...(colouring ? { colouring } : {}),
    ...(labels ? { labels } : {}),
    ...(colouring && query.legend ? { legend: { position: query.legendposition ?? 'bottomright' } } : {}),
  };
}

function classColouring(query: ThematicQuery, theme: Theme | undefined): ClassColouring | undefined {
  const themed = theme?.classify;
  const field = query.styleby ?? themed?.field;
  if (field === undefined) return undefined;
  const method = query.classify ?? themed?.method;
  const palette = query.palette ?? themed?.palette;
  return {
    kind: 'classes',
    field,
    ...(method ? { method } : {}),
    classes: query.classes ?? themed?.classes ?? DEFAULT_CLASSES,
    ...(palette ? { palette } : {}),
    reversePalette: query.reversepalette ?? themed?.reversePalette ?? false,
    nullColor: query.nullcolor ?? themed?.nullColor ?? THEMATIC_DEFAULTS.nullColor,
  };
}

function ruleColouring(theme: Theme | undefined): RuleColouring | undefined {
  if (!theme?.rules?.length) return undefined;
  return { kind: 'rules', theme: theme.name, rules: theme.rules, plainFill: resolveStyle(theme.style).fillColor };
}

function labelSettings(query: ThematicQuery, theme: Theme | undefined): LabelSettings | undefined {
  const themed = theme?.labels;
  const field = query.labelfield ?? themed?.field;
  if (field === undefined) return undefined;
  return {
    field,
    size: query.labelsize ?? themed?.size ?? THEMATIC_DEFAULTS.labelSize,
    color: query.labelcolor ?? themed?.color ?? THEMATIC_DEFAULTS.labelColor,
    halo: query.labelhalo ?? themed?.halo ?? THEMATIC_DEFAULTS.labelHalo,
  };
}
