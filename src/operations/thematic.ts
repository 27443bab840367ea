/**
 * A styled request's classes, before anything is drawn: the `classify` job's pass over the
 * `.dbf` (the whole file, or the `where=` selection), kept on this thread per shapefile
 * version, field, method, classes and selection — every picture of a choropleth needs the
 * same classes, and a large file's pass costs a worker hundreds of milliseconds — and the
 * legend made from it with the request's palette, which costs nothing to redo.
 */
import type { FeatureStyling } from '../drawing/feature-styling.ts';
import type { DrawingPool } from '../jobs/drawing-pool.ts';
import type { ClassColouring, Colouring, Thematic } from '../params/thematic.ts';
import type { Culture } from '../plugin-contract/basemap-plugin.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';
import type { RequestTiming } from '../stages.ts';
import { byteBoundedCache, stringBytes, type ByteBoundedCache } from '../structures/byte-bounded-cache.ts';
import type { CategoryClasses, Classification, NumericClasses, RuleClasses } from '../thematic/classification.ts';
import { legendFor } from '../thematic/legend-for.ts';
import type { Legend } from '../thematic/legend.ts';
import { rulesLegend } from '../thematic/rules.ts';

export interface ThematicServices {
  drawing: DrawingPool;
  /** Classifications already made (classificationCache()). */
  classifications: ClassificationCache;
  config: { limits: { maxCategories: number } };
}

export type ClassificationCache = ByteBoundedCache<Classification>;

/** A few hundred classifications of many categories; most are far smaller. */
const CLASSIFICATION_CACHE_BYTES = 8 * 1024 * 1024;

export function classificationCache(): ClassificationCache {
  return byteBoundedCache(CLASSIFICATION_CACHE_BYTES, (classification) => stringBytes(JSON.stringify(classification)));
}

export interface StylingRequest {
  thematic: Thematic;
  where?: string;
  culture: Culture;
  noCache: boolean;
}

/** What the drawing jobs are told of the request's styling, with its legend; undefined for a plain picture. */
export async function featureStyling(
  request: StylingRequest,
  files: ShapefileFiles,
  /** The shapefile's version as the caching step read it; undefined: not kept. */
  version: string | undefined,
  services: ThematicServices,
  signal: AbortSignal,
  timing?: RequestTiming,
): Promise<{ styling: FeatureStyling; legend?: Legend } | undefined> {
  const { colouring, labels } = request.thematic;
  if (!colouring && !labels) return undefined;
  if (!colouring) return { styling: { labels } };
  const legend = await legendOf(colouring, request, files, version, services, signal, timing);
  const styling: FeatureStyling = {
    colouring: colouring.kind === 'rules' ? colouring : { kind: 'classes', classification: legend.classification!, legend: legend.legend },
    ...(labels ? { labels } : {}),
    ...(request.thematic.legend ? { legend: { legend: legend.legend, position: request.thematic.legend.position } } : {}),
  };
  return { styling, legend: legend.legend };
}

/** The legend of `colouring` over the file or the selection, and the classification behind it (classes only). */
export async function legendOf(
  colouring: Colouring,
  request: Omit<StylingRequest, 'thematic'>,
  files: ShapefileFiles,
  version: string | undefined,
  services: ThematicServices,
  signal: AbortSignal,
  timing?: RequestTiming,
): Promise<{ legend: Legend; classification?: NumericClasses | CategoryClasses }> {
  const classification = await classificationOf(colouring, request, files, version, services, signal, timing);
  if (colouring.kind === 'rules') return { legend: rulesLegend(colouring.rules, (classification as RuleClasses).counts, colouring.plainFill) };
  const classes = classification as NumericClasses | CategoryClasses;
  return { legend: legendFor(classes, legendStyle(colouring, request.culture)), classification: classes };
}

function legendStyle(colouring: ClassColouring, culture: Culture) {
  const { palette, reversePalette, nullColor } = colouring;
  return { ...(palette ? { palette } : {}), reversePalette, nullColor, culture };
}

async function classificationOf(
  colouring: Colouring,
  request: Omit<StylingRequest, 'thematic'>,
  files: ShapefileFiles,
  version: string | undefined,
  services: ThematicServices,
  signal: AbortSignal,
  timing?: RequestTiming,
): Promise<Classification> {
  const { maxCategories } = services.config.limits;
  const what =
    colouring.kind === 'rules'
      ? { rules: colouring.rules, theme: colouring.theme }
      : { field: colouring.field, ...(colouring.method ? { method: colouring.method } : {}), classes: colouring.classes };
  const input = { files, ...what, maxCategories, ...(request.where === undefined ? {} : { where: request.where }) };
  const key = version === undefined || request.noCache ? undefined : JSON.stringify([files.paths, version, what, maxCategories, request.where ?? null]);
  const kept = key === undefined ? undefined : services.classifications.get(key);
  if (kept) return kept;
  const { stages, ...classification } = await services.drawing.run('classify', input, signal);
  timing?.job(stages);
  if (key !== undefined) services.classifications.set(key, classification);
  return classification;
}
