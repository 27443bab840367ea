/**
 * `styleBy=` and a theme's `classify` and `rules`, on a drawing worker: the classes of a
 * field over the file's features (all of them, or the `where=` selection), or how many
 * features each rule styles. One pass over the `.dbf` decoding only the fields needed (the
 * `where=` scan's fast path), no geometry read: a feature counts by its row, as a GIS's
 * attribute table counts it, whether or not its shape has anything to draw. Asking the `.shp`
 * of each row (one small read a record) tripled the cost of a million rows (4.2 s against
 * 1.0 s), for the few null shapes real files hold.
 *
 * The caller caches the answer on the main thread, per file version, field, method, classes
 * and where: computing it reads every row of the file (hundreds of milliseconds for a
 * million), while the answer is a few hundred bytes that every image, map and legend of that
 * selection needs alike, and that its ETag depends on. A cache on a worker would be computed
 * again on each worker the pool happens to pick, and the legend route would need a worker
 * just to look it up.
 */
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import { BadRequestError } from '../errors.ts';
import { compileFilter } from '../filter/index.ts';
import type { DrawingContext } from '../job-context/context.ts';
import type { ThemeRule } from '../params/theme.ts';
import { fieldNamed, fieldsNamedIn, type AttributeType, type AttributeValue } from '../shapefile/dbf.ts';
import type { OpenShapefile, ShapefileFiles } from '../shapefile/file-set.ts';
import type { Classification, RuleClasses } from '../thematic/classification.ts';
import { classifyValues } from '../thematic/classify-values.ts';
import { DEFAULT_CLASSES, type ClassifyMethod } from '../thematic/methods.ts';
import { compileRules } from '../thematic/rules.ts';
import type { Handled } from '../workers/serve-jobs.ts';

export interface ClassifyJob {
  files: ShapefileFiles;
  /** The field to classify, any letter case; unused when `rules` are given. */
  field?: string;
  /** Undefined: by the field's type (categories for text, logical and date; quantile for numbers). */
  method?: ClassifyMethod;
  /** Of the numeric methods; DEFAULT_CLASSES when unset. */
  classes?: number;
  maxCategories: number;
  /** A theme's rules: the answer counts the features each styles. */
  rules?: ThemeRule[];
  /** The theme the rules are of, for messages. */
  theme?: string;
  /** Only the features this CQL2 filter selects count. */
  where?: string;
}

/** A cancellation check every 256 rows (a LIKE in `where` may cost 65,000 steps a row), besides the one per chunk of the file. */
const ROWS_PER_CHECKPOINT_MASK = 255;

const TYPE_NAMES: Record<AttributeType, string> = { string: 'text', number: 'number', boolean: 'logical', date: 'date' };

export function classifyFeatures(job: ClassifyJob, { shapefiles, checkpoint, lap }: DrawingContext): Handled<Classification> {
  const shapefile = shapefiles.open(job.files, checkpoint);
  lap('open');
  const result = job.rules ? countRules(shapefile, { ...job, rules: job.rules }, checkpoint) : classifyField(shapefile, job, checkpoint);
  lap('classify');
  return { result };
}

function classifyField(shapefile: OpenShapefile, job: ClassifyJob, checkpoint: Checkpoint): Classification {
  if (job.field === undefined) throw new Error('A classify job needs a field or rules');
  const [name] = fieldsNamedIn(shapefile, 'styleBy', [job.field]);
  const { type } = fieldNamed(shapefile.fields, name)!;
  const method = job.method ?? (type === 'number' ? 'quantile' : 'categories');
  if (method !== 'categories' && type !== 'number') {
    throw new BadRequestError(
      `Parameter 'classify': method '${method}' needs a number field, but field '${name}' of shapefile '${shapefile.name}' is ${TYPE_NAMES[type]}; use classify=categories, or a number field.`,
    );
  }
  const rows = selectedRows(shapefile, [name], job.where, checkpoint);
  return classifyValues(valuesOf(rows, name), { field: name, method, classes: job.classes ?? DEFAULT_CLASSES, maxCategories: job.maxCategories });
}

function countRules(shapefile: OpenShapefile, job: ClassifyJob & { rules: ThemeRule[] }, checkpoint: Checkpoint): RuleClasses {
  const { rules, where } = job;
  const compiled = compileRules(rules, shapefile.fields, job.theme);
  const counts = rules.map(() => 0);
  let unmatched = 0;
  for (const values of selectedRows(shapefile, compiled.fields, where, checkpoint)) {
    const rule = compiled.ruleOf(values);
    if (rule === undefined) unmatched++;
    else counts[rule]++;
  }
  return { kind: 'rules', counts, unmatched };
}

function* valuesOf(rows: Iterable<Record<string, AttributeValue>>, name: string): Generator<AttributeValue> {
  for (const values of rows) yield values[name] ?? null;
}

/** The rows, with the values of `names` (as the `.dbf` spells them), of the whole file or of the `where` selection. */
function* selectedRows(shapefile: OpenShapefile, names: readonly string[], where: string | undefined, checkpoint: Checkpoint): Generator<Record<string, AttributeValue>> {
  const filter = where === undefined ? undefined : compileFilter(where, shapefile.fields);
  const read = [...new Set([...names, ...(filter?.fields ?? [])])];
  for (const { row, values } of shapefile.attributeRows(read, checkpoint)) {
    if ((row & ROWS_PER_CHECKPOINT_MASK) === 0) checkpoint();
    if (!filter || filter.matches(values)) yield values;
  }
}
