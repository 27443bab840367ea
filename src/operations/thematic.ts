/**
 * A styled request's classes, before anything is drawn: the `classify` job's pass over the
 * `.dbf` (the whole file, or the `where=` selection), kept on this thread per shapefile
 * version, field, method, classes and selection — every picture of a choropleth needs the
 * same classes, and a large file's pass costs a worker hundreds of milliseconds — and the
 * legend made from it with the request's palette, which costs nothing to redo.
 */
import type { FeatureStyling } from '../drawing/feature-styling.ts';
import { ServiceError } from '../errors.ts';
import type { JobPool } from '../jobs/job-pool.ts';
import type { ClassColouring, Colouring, RuleColouring, Thematic } from '../params/thematic.ts';
import type { Culture } from '../plugin-contract/basemap-plugin.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';
import type { RequestTiming } from '../stages.ts';
import { byteBoundedCache, stringBytes, type ByteBoundedCache } from '../structures/byte-bounded-cache.ts';
import type { CategoryClasses, Classification, NumericClasses, RuleClasses } from '../thematic/classification.ts';
import { legendFor } from '../thematic/legend-for.ts';
import type { Legend } from '../thematic/legend.ts';
import { rulesLegend } from '../thematic/rules.ts';

export interface ThematicServices {
  jobs: JobPool;
  /** Classifications already made (classificationCache()). */
  classifications: ClassificationCache;
  config: { limits: { maxCategories: number } };
}

export interface ClassificationCache {
  made: ByteBoundedCache<Classification>;
  /** Those being made: requests for the same classes at once share one pass (a choropleth's picture and its legend come together). */
  making: Map<string, Promise<Classification>>;
}

/** A few hundred classifications of many categories; most are far smaller. */
const CLASSIFICATION_CACHE_BYTES = 8 * 1024 * 1024;

export function classificationCache(): ClassificationCache {
  return { made: byteBoundedCache(CLASSIFICATION_CACHE_BYTES, (classification) => stringBytes(JSON.stringify(classification))), making: new Map() };
}

/** What the classes are of: the selection, and how they are kept and made. */
export interface ClassesOf {
  files: ShapefileFiles;
  where?: string;
  /** The shapefile's version (its files' sizes and times) as the caching step read it; undefined (or noCache): made afresh and not kept. */
  version?: object;
  noCache: boolean;
  services: ThematicServices;
  signal: AbortSignal;
  timing?: RequestTiming;
}

/** What the drawing jobs are told of the request's styling, with its legend; undefined for a plain picture. */
export async function featureStyling(thematic: Thematic, culture: Culture, of: ClassesOf): Promise<{ styling: FeatureStyling; legend?: Legend } | undefined> {
  const { colouring, labels } = thematic;
  if (!colouring) return labels ? { styling: { labels, culture } } : undefined;
  const coloured = await colouredBy(colouring, culture, of);
  const styling: FeatureStyling = {
    culture,
    colouring: coloured.colouring,
    ...(thematic.outline ? { outline: thematic.outline } : {}),
    ...(labels ? { labels } : {}),
    ...(thematic.legend ? { legend: { legend: coloured.legend, position: thematic.legend.position } } : {}),
  };
  return { styling, legend: coloured.legend };
}

/** The legend of `colouring` over the file or the selection. */
export async function legendOf(colouring: Colouring, culture: Culture, of: ClassesOf): Promise<Legend> {
  return (await colouredBy(colouring, culture, of)).legend;
}

/** The colouring as the drawing jobs take it (rules as they are; classes with their classification), and its legend. */
async function colouredBy(colouring: Colouring, culture: Culture, of: ClassesOf): Promise<{ colouring: NonNullable<FeatureStyling['colouring']>; legend: Legend }> {
  if (colouring.kind === 'rules') {
    // A theme's rules are fixed from start-up: its name keys them (the rules would be up to 64 × 4,096 characters a request).
    const counted = await kept(of, { theme: colouring.theme }, () => countRules(colouring, of));
    return { colouring, legend: rulesLegend(colouring.rules, counted.counts, colouring.plainFill) };
  }
  const { field, method, classes } = colouring;
  const classification = await kept(of, { field, method, classes }, () => classify(colouring, of));
  const legend = legendFor(classification, legendStyle(colouring, culture));
  return { colouring: { kind: 'classes', classification, legend, nullColor: colouring.nullColor }, legend };
}

function legendStyle(colouring: ClassColouring, culture: Culture) {
  const { palette, reversePalette, nullColor } = colouring;
  return { ...(palette ? { palette } : {}), reversePalette, nullColor, culture };
}

/**
 * `make()`'s answer, kept under the file's version, `what` and the selection, and shared with
 * the requests that ask for it while it is made. A request whose shared making failed (its
 * maker's client left, say) makes its own, once; not when it failed for what was asked (a
 * 4xx), which every request asking the same gets alike.
 */
async function kept<T extends Classification>(of: ClassesOf, what: object, make: () => Promise<T>): Promise<T> {
  const { files, version, where, services } = of;
  if (version === undefined || of.noCache) return make();
  const key = JSON.stringify([files.paths, version, what, services.config.limits.maxCategories, where ?? null]);
  const { made, making } = services.classifications;
  const held = made.get(key);
  if (held) return held as T;
  const shared = making.get(key);
  if (shared) return sharedOrOwn(shared as Promise<T>, of, make);
  const promise = make();
  making.set(key, promise);
  try {
    const classification = await promise;
    made.set(key, classification);
    return classification;
  } finally {
    making.delete(key);
  }
}

async function sharedOrOwn<T>(shared: Promise<T>, of: ClassesOf, make: () => Promise<T>): Promise<T> {
  try {
    return await shared;
  } catch (error) {
    if (of.signal.aborted || (error instanceof ServiceError && error.status < 500)) throw error;
    return make();
  }
}

async function classify(colouring: ClassColouring, of: ClassesOf): Promise<NumericClasses | CategoryClasses> {
  const { field, method, classes } = colouring;
  const { stages, ...classification } = await run(of, { field, ...(method ? { method } : {}), classes });
  of.timing?.job(stages);
  if (classification.kind === 'rules') throw new Error('A field was classified as rules');
  return classification;
}

async function countRules(colouring: RuleColouring, of: ClassesOf): Promise<RuleClasses> {
  const { stages, ...counted } = await run(of, { rules: colouring.rules, theme: colouring.theme });
  of.timing?.job(stages);
  if (counted.kind !== 'rules') throw new Error('Rules were counted as classes');
  return counted;
}

function run(of: ClassesOf, what: { field: string; method?: ClassColouring['method']; classes: number } | Pick<RuleColouring, 'rules' | 'theme'>) {
  const { files, where, services, signal } = of;
  const input = { files, ...what, maxCategories: services.config.limits.maxCategories, ...(where === undefined ? {} : { where }) };
  return services.jobs.run('classify', input, signal);
}
