/**
 * What a theme is once read, and what `theme=` picks (docs/configuration.md, "Themes"). Declared
 * in params/, not in themes/, which reads the files: the parameters need it to validate
 * requests, and params/ must not import themes/ (ARCHITECTURE.md, "Code map").
 */
import type { Rgba } from '../svg/style.ts';
import type { ClassifyMethod } from '../thematic/methods.ts';
import type { StyleSettings } from './style.ts';

/** A named style preset, with the theme it extends (if any) already merged in: what the `theme` parameter picks (themes/ reads them from theme files). */
export interface Theme {
  /** As spelled in the theme file, e.g. 'ShapeServerBlue'. */
  name: string;
  /** Undefined settings are left to the operation's defaults. */
  style: StyleSettings;
  /** Colours by a field's classes (docs/decisions.md, "Thematic styling"); query parameters override each setting. */
  classify?: ThemeClassify;
  /** Colours by the first rule whose filter a feature matches (MapServer's CLASS EXPRESSION). */
  rules?: ThemeRule[];
  labels?: ThemeLabels;
}

export interface ThemeClassify {
  /** A `.dbf` field name, any letter case. */
  field: string;
  method?: ClassifyMethod;
  classes?: number;
  /** A palette name as d3-scale-chromatic spells it (thematic/palettes.ts), any letter case. */
  palette?: string;
  reversePalette?: boolean;
  nullColor?: Rgba;
}

/** One rule of a theme, in order: the first whose filter matches styles the feature. */
export interface ThemeRule {
  /** CQL2 text, as `where=` takes it; checked for syntax when themes load. No filter: the default rule, matching every feature. */
  filter?: string;
  fillColor?: Rgba;
  lineColor?: Rgba;
  lineWidth?: number;
  /** The rule's text in the legend; the filter's text when unset. */
  label?: string;
}

export interface ThemeLabels {
  field: string;
  size?: number;
  color?: Rgba;
  halo?: Rgba;
}
