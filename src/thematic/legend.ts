/**
 * A styled picture's legend, as the envelope carries it (`Legend`), the legend route answers
 * it and the picture draws it: one entry per class, in class order; a feature's class index
 * (hot spots' `Class`) is its entry's index here.
 */
import type { ClassifyMethod } from './methods.ts';

export interface LegendClass {
  /** Rounded, readable text ("1,000 – 2,500", "Forest", "other", "no value"). */
  label: string;
  /** `#RRGGBB`. */
  color: string;
  /** A numeric class's exact bounds (a value belongs to the first class whose max is ≥ it); null otherwise. */
  min: number | null;
  max: number | null;
  /** A category's value; null for numeric classes, the "other" class and the null class. */
  value: string | number | boolean | null;
  /** Features in the class. */
  count: number;
}

export interface Legend {
  /** The `.dbf` field as the file spells it; null for a theme's rules. */
  field: string | null;
  method: ClassifyMethod | 'rules';
  classes: LegendClass[];
}
