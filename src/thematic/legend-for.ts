/**
 * A field's classification as the legend shows it (legend.ts): each class with its colour
 * from the palette, its exact bounds or its value, its readable label and its count, in the
 * class order class-of.ts indexes by (classification.ts).
 */
import type { Culture } from '../plugin-contract/basemap-plugin.ts';
import { hex } from '../svg/paint.ts';
import type { Rgba } from '../svg/style.ts';
import { categoryLabel, NULL_LABEL, numericLabels, OTHER_LABEL } from './class-labels.ts';
import { classSlots, type CategoryClasses, type NumericClasses } from './classification.ts';
import type { Legend, LegendClass } from './legend.ts';
import { DEFAULT_NUMERIC_PALETTE, paletteColours } from './palettes.ts';

export interface LegendOptions {
  /** A palette name (palettes.ts), any letter case; undefined: YlOrRd for numbers, Set2, then Set3, then Dark2 for categories. */
  palette?: string;
  reversePalette: boolean;
  /** The null class's colour; its alpha is the drawing's business, the legend's `Color` is `#RRGGBB`. */
  nullColor: Rgba;
  /** Thousands separators and decimal mark. */
  culture: Culture;
}

export function legendFor(classification: NumericClasses | CategoryClasses, options: LegendOptions): Legend {
  const slots = classSlots(classification);
  const classes = classification.kind === 'numeric' ? numericClasses(classification, options) : categoryClasses(classification, options, slots.other !== undefined);
  if (slots.nulls !== undefined) {
    classes.push({ label: NULL_LABEL, color: hex(options.nullColor), min: null, max: null, value: null, count: classification.nulls });
  }
  return { field: classification.field, method: classification.method, classes };
}

function numericClasses(classification: NumericClasses, { palette, reversePalette, culture }: LegendOptions): LegendClass[] {
  const { breaks, counts, min, oneValueEach } = classification;
  const colours = paletteColours(palette ?? DEFAULT_NUMERIC_PALETTE, breaks.length, reversePalette);
  const labels = numericLabels(classification, culture);
  return breaks.map((max, i) => ({
    label: labels[i],
    color: colours[i],
    // A class is (previous break, its break]: the bound two classes share is the lower one's max.
    min: oneValueEach ? max : i === 0 ? min : breaks[i - 1],
    max,
    value: null,
    count: counts[i],
  }));
}

/**
 * The "other" class's colour: a neutral grey outside every palette, so that it never repeats a
 * category's colour when the palette cycles, and apart from the default nullColor (#CCCCCC).
 */
export const OTHER_COLOUR = '#999999';

function categoryClasses(classification: CategoryClasses, { palette, reversePalette, culture }: LegendOptions, hasOther: boolean): LegendClass[] {
  const { values, counts } = classification;
  const colours = paletteColours(palette, values.length, reversePalette);
  const classes: LegendClass[] = values.map((value, i) => ({
    label: categoryLabel(value, culture),
    color: colours[i],
    min: null,
    max: null,
    value,
    count: counts[i],
  }));
  if (hasOther) classes.push({ label: OTHER_LABEL, color: OTHER_COLOUR, min: null, max: null, value: null, count: classification.other });
  return classes;
}
