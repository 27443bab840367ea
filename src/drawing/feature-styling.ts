/**
 * A styled picture's features, on the drawing worker: each drawn feature's class (by the
 * classification the request's `classify` job made, or by the theme's first matching rule),
 * the paint that class gives it, and its label's text. What the styling names in the file
 * (fields, rules' filters) is resolved first, so that a wrong name is a 400 before any
 * geometry is read; then each feature's `.dbf` row is read once, for all three. A picture
 * without styling reads none.
 */
import { StepPacer, type Checkpoint } from '../cancellation/checkpoint.ts';
import type { LegendPosition } from '../legend/legend-svg.ts';
import type { LabelSettings, RuleColouring } from '../params/thematic.ts';
import type { Culture } from '../plugin-contract/basemap-plugin.ts';
import { fieldsNamedIn, pickFields, type AttributeValue } from '../shapefile/dbf.ts';
import { readingEach } from '../shapefile/byte-reader.ts';
import type { OpenShapefile } from '../shapefile/file-set.ts';
import { baseShapeType } from '../shapefile/shp-record.ts';
import { ShapeType } from '../shapefile/types.ts';
import type { FeaturePaint, Rgba } from '../svg/style.ts';
import { categoryLabel } from '../thematic/class-labels.ts';
import { classIndexer } from '../thematic/class-of.ts';
import { classSlots, type CategoryClasses, type NumericClasses } from '../thematic/classification.ts';
import { colouredPaint, type NamedOutline } from '../thematic/class-outline.ts';
import type { Legend } from '../thematic/legend.ts';
import { compileRules } from '../thematic/rules.ts';
import { parseColour } from '../params/colour.ts';

/** What a drawing job is told of the request's thematic styling. */
export interface FeatureStyling {
  /** By class (the classification, and its legend's colours) or by the theme's rules. */
  colouring?: ClassesToDraw | RuleColouring;
  /** With a colouring: the outline the request or its theme named; what it leaves out recedes (thematic/class-outline.ts). */
  outline?: NamedOutline;
  labels?: LabelSettings;
  /** Drawn into the picture, in that corner. */
  legend?: { legend: Legend; position: LegendPosition };
  /** How labels write numbers (the map's `culture`; images: English), as the legend does. */
  culture: Culture;
}

export interface ClassesToDraw {
  kind: 'classes';
  classification: NumericClasses | CategoryClasses;
  /** Its classes' colours, in class order. */
  legend: Legend;
  /** The null class's colour with its alpha, which the legend's `#RRGGBB` leaves out. */
  nullColor: Rgba;
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
type ClassOf = (row: Row) => { index: number; paint: FeaturePaint } | undefined;

/** A colouring resolved against the file: a row's class and paint, and the fields of the row it reads. */
interface ResolvedColouring {
  classOf: ClassOf;
  fields: readonly string[];
}

/** The styling resolved against the file: styles features by id. */
export type FeatureStyler = (featureIds: readonly number[], checkpoint: Checkpoint) => StyledFeatures;

/**
 * Resolves `styling` against `shapefile`: its label field (a 400 naming `labelField` and the
 * file's fields when there is none) and its rules (compiled against the file's fields, a 400
 * naming the theme's rule when one does not fit them).
 */
export function featureStyler(shapefile: OpenShapefile, styling: FeatureStyling): FeatureStyler {
  const colouring = colouringOf(shapefile, styling.colouring, styling.outline ?? {});
  const classOf = colouring?.classOf;
  const labelField = styling.labels && fieldsNamedIn(shapefile, 'labelField', [styling.labels.field])[0];
  // Only these are kept of each row: a map styles up to 100,000 features, and a row may hold 64 KB of others.
  const needed = [...new Set([...(colouring?.fields ?? []), ...(labelField === undefined ? [] : [labelField])])];
  return (featureIds, checkpoint) => {
    const pacer = new StepPacer(checkpoint);
    const rows = new Map<number, Row>();
    const rowOf = (fid: number) => {
      let row = rows.get(fid);
      if (!row) rows.set(fid, (row = pickFields(shapefile.readAttributes(fid), needed)));
      return row;
    };
    // From a remote source, the rows not yet fetched are fetched together, before any is styled.
    if (needed.length > 0) readingEach([...new Set(featureIds)], (fid) => void rowOf(fid));
    const styled: StyledFeatures = { paints: [], classes: [], labels: [] };
    for (const fid of featureIds) {
      // A row read and decoded a feature: a map may style 100,000 of them.
      pacer.step(64);
      const row = needed.length > 0 ? rowOf(fid) : {};
      const painted = classOf?.(row);
      styled.classes.push(painted?.index);
      styled.paints.push(painted?.paint);
      styled.labels.push(labelField === undefined ? undefined : valueAsLabel(row[labelField], styling.culture));
    }
    return styled;
  };
}

function colouringOf(shapefile: OpenShapefile, colouring: FeatureStyling['colouring'], named: NamedOutline): ResolvedColouring | undefined {
  if (!colouring) return undefined;
  // A file holds one kind of shape; a line has no outline: its class's colour is its stroke's.
  const outlined = baseShapeType(shapefile.shapeType) !== ShapeType.PolyLine;
  if (colouring.kind === 'rules') {
    const rules = compileRules(colouring.rules, shapefile.fields, colouring.theme);
    const paints: FeaturePaint[] = colouring.rules.map(({ fillColor, lineColor, lineWidth }) =>
      outlined
        ? colouredPaint(fillColor ?? colouring.plainFill, { lineColor: lineColor ?? named.lineColor, lineWidth: lineWidth ?? named.lineWidth })
        : { fillColor, lineColor, lineWidth },
    );
    const classOf: ClassOf = (row) => {
      const index = rules.ruleOf(row);
      return index === undefined ? undefined : { index, paint: paints[index] };
    };
    return { classOf, fields: rules.fields };
  }
  const { classification, legend, nullColor } = colouring;
  const indexOf = classIndexer(classification);
  const nulls = classSlots(classification).nulls;
  const paints = legend.classes.map((entry, i): FeaturePaint => {
    const fillColor = i === nulls ? nullColor : parseColour(entry.color)!;
    return outlined ? colouredPaint(fillColor, named) : { fillColor };
  });
  const classOf: ClassOf = (row) => {
    const index = indexOf(row[classification.field] ?? null);
    return index === undefined ? undefined : { index, paint: paints[index] };
  };
  return { classOf, fields: [classification.field] };
}

/** A value as a label reads it, as the legend writes a category; nothing for no value. */
function valueAsLabel(value: AttributeValue | undefined, culture: Culture): string | undefined {
  if (value === null || value === undefined) return undefined;
  const text = categoryLabel(value, culture).trim();
  return text === '' ? undefined : text;
}

/** A feature's class by its id, for its hot spots: every drawn piece of a feature has the feature's class. */
export function classByFeature(featureIds: readonly number[], styled: StyledFeatures): (featureId: number) => number | undefined {
  const classes = new Map<number, number | undefined>();
  featureIds.forEach((fid, i) => classes.set(fid, styled.classes[i]));
  return (featureId) => classes.get(featureId);
}
