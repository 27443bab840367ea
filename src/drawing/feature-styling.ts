/**
 * A styled picture's features, on the drawing worker: each drawn feature's class (by the
 * classification the request's `classify` job made, or by the theme's first matching rule),
 * the paint that class gives it, and its label's text. Each feature's `.dbf` row is read once,
 * for all three; a picture without styling reads none.
 */
import { BadRequestError, echo } from '../errors.ts';
import { parseColour } from '../params/colour.ts';
import type { LegendPosition } from '../legend/legend-svg.ts';
import type { LabelSettings, RuleColouring } from '../params/thematic.ts';
import { fieldNamed, type AttributeValue } from '../shapefile/dbf.ts';
import type { OpenShapefile } from '../shapefile/file-set.ts';
import type { FeaturePaint } from '../svg/style.ts';
import { classIndexer } from '../thematic/class-of.ts';
import type { CategoryClasses, NumericClasses } from '../thematic/classification.ts';
import type { Legend } from '../thematic/legend.ts';
import { compileRules } from '../thematic/rules.ts';

/** What a drawing job is told of the request's thematic styling. */
export interface FeatureStyling {
  /** By class (the classification, and its legend's colours) or by the theme's rules. */
  colouring?: ClassesToDraw | RuleColouring;
  labels?: LabelSettings;
  /** Drawn into the picture, in that corner. */
  legend?: { legend: Legend; position: LegendPosition };
}

export interface ClassesToDraw {
  kind: 'classes';
  classification: NumericClasses | CategoryClasses;
  /** Its classes' colours, in class order. */
  legend: Legend;
}

/** Per drawn feature, in the order given. */
export interface StyledFeatures {
  paints: (FeaturePaint | undefined)[];
  /** The feature's index in the legend's classes; undefined when no class or rule took it. */
  classes: (number | undefined)[];
  /** undefined: no label (no labelField, or no value). */
  labels: (string | undefined)[];
}

type Row = Readonly<Record<string, AttributeValue>>;

/** The styling of the features `featureIds` (parents; a child's row is its parent's) of `shapefile`. */
export function styleFeatures(shapefile: OpenShapefile, featureIds: readonly number[], styling: FeatureStyling): StyledFeatures {
  const classOf = colouringOf(shapefile, styling.colouring);
  const labelField = styling.labels && fieldOf(shapefile, styling.labels.field, 'labelField');
  const rows = new Map<number, Row>();
  const rowOf = (fid: number) => {
    let row = rows.get(fid);
    if (!row) rows.set(fid, (row = shapefile.readAttributes(fid)));
    return row;
  };
  const styled: StyledFeatures = { paints: [], classes: [], labels: [] };
  for (const fid of featureIds) {
    const row = classOf || labelField ? rowOf(fid) : {};
    const painted = classOf?.(row);
    styled.classes.push(painted?.index);
    styled.paints.push(painted?.paint);
    styled.labels.push(labelField === undefined ? undefined : labelText(row[labelField]));
  }
  return styled;
}

type ClassOf = (row: Row) => { index: number; paint: FeaturePaint } | undefined;

function colouringOf(shapefile: OpenShapefile, colouring: FeatureStyling['colouring']): ClassOf | undefined {
  if (!colouring) return undefined;
  if (colouring.kind === 'rules') {
    const rules = compileRules(colouring.rules, shapefile.fields, colouring.theme);
    const paints: FeaturePaint[] = colouring.rules.map(({ fillColor, lineColor, lineWidth }) => ({ fillColor, lineColor, lineWidth }));
    return (row) => {
      const index = rules.ruleOf(row);
      return index === undefined ? undefined : { index, paint: paints[index] };
    };
  }
  const field = colouring.classification.field;
  const indexOf = classIndexer(colouring.classification);
  const paints = colouring.legend.classes.map((entry): FeaturePaint => ({ fillColor: parseColour(entry.color) }));
  return (row) => {
    const index = indexOf(row[field] ?? null);
    return index === undefined ? undefined : { index, paint: paints[index] };
  };
}

/** The `.dbf` spelling of `name`; 400 naming the parameter and the file's fields when there is none. */
function fieldOf(shapefile: OpenShapefile, name: string, parameter: string): string {
  const field = fieldNamed(shapefile.fields, name);
  if (field) return field.name;
  const known = shapefile.fields.map((entry) => entry.name).join(', ') || 'none';
  throw new BadRequestError(`Parameter '${parameter}': shapefile '${shapefile.name}' has no field '${echo(name)}' (its fields: ${known}).`);
}

/** A value as a label reads it; nothing for no value. */
function labelText(value: AttributeValue | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const text = String(value).trim();
  return text === '' ? undefined : text;
}

/** A feature's class by its id, for its hot spots: every drawn piece of a feature has the feature's class. */
export function classByFeature(featureIds: readonly number[], styled: StyledFeatures): (featureId: number) => number | undefined {
  const classes = new Map<number, number | undefined>();
  featureIds.forEach((fid, i) => classes.set(fid, styled.classes[i]));
  return (featureId) => classes.get(featureId);
}
