/**
 * What issue 28 ("Big layers drawn right") expects of each big layer, in one table: a
 * picture is either drawn whole (every feature in view: its painted pixels held to the pixels
 * the same features, as GDAL reads them, touch in the same frame) or refused before any work
 * with a 400 naming the limit it would pass; never answered 200 with less. Change a row here
 * when a decision changes (a limit raised, a million points made drawable); polygons.test.ts,
 * lines.test.ts and points.test.ts each run the rows of their kind.
 *
 * Servers: `defaults` runs with every limit at its default (limits.maxIds 1,000,
 * limits.maxMapFeatures 100,000, limits.maxMapVertices 5,000,000, limits.maxImageVertices
 * 2,000,000); `manyIds` raises limits.maxIds to 200,000, for one picture of a large `where=`
 * selection (singleImage=1); `manyFeatures` raises limits.maxMapFeatures to 1,000,000, for a
 * map of a million points (stamped: docs/api.md, "How features are drawn").
 */
import type { LayerKind } from '../support/big-layers.ts';

export type ServerName = 'defaults' | 'manyIds' | 'manyFeatures';

export const SERVER_LIMITS: Record<ServerName, Record<string, number>> = {
  defaults: {},
  manyIds: { maxIds: 200_000 },
  // A million points take 5 s or so alone, but twice that beside the busy loops, whose nice 0 outranks the drawing workers' nice 10.
  manyFeatures: { maxMapFeatures: 1_000_000, requestTimeoutMs: 60_000 },
};

export type LimitName = 'limits.maxMapFeatures' | 'limits.maxIds' | 'limits.maxMapVertices' | 'limits.maxImageVertices';

/** 400 before any work, its ErrorDetails naming the setting and its value. */
export interface Refusal {
  refused: { limit: LimitName; max: number };
}

/** 'drawn': 200 with the picture, whose painted pixels reach IoU ≥ MIN_IOU against the reference. */
export type Outcome = 'drawn' | Refusal;

export interface BigLayerCase {
  layer: string;
  kind: LayerKind;
  /** map: the whole file (`map?file=NAME`); images: `images?file=NAME&where=…&singleImage=1`. */
  route: 'map' | 'images';
  /** The images' selection, in CQL2 (and SQL: GDAL reads it too). `v` is each feature's position in its file. */
  where?: string;
  server: ServerName;
  outcome: Outcome;
}

export const MIN_IOU = 0.95;
/** Every /health answer during a big request comes within this. */
export const HEALTH_WITHIN_MS = 100;

const drawn = 'drawn' as const;
const refusedBy = (limit: LimitName, max: number): Refusal => ({ refused: { limit, max } });

export const CASES: BigLayerCase[] = [
  // Whole-file maps at 1000 × 1000 (polygons with lineWidth=0, lines with lineWidth=2, points with their default symbol).
  { kind: 'polygons', layer: 'polygons10k', route: 'map', server: 'defaults', outcome: drawn },
  { kind: 'polygons', layer: 'polygons100k', route: 'map', server: 'defaults', outcome: drawn },
  { kind: 'polygons', layer: 'polygons1m', route: 'map', server: 'defaults', outcome: refusedBy('limits.maxMapFeatures', 100_000) },
  { kind: 'lines', layer: 'lines10k', route: 'map', server: 'defaults', outcome: drawn },
  { kind: 'lines', layer: 'lines100k', route: 'map', server: 'defaults', outcome: drawn },
  { kind: 'points', layer: 'points10k', route: 'map', server: 'defaults', outcome: drawn },
  { kind: 'points', layer: 'points100k', route: 'map', server: 'defaults', outcome: drawn },
  { kind: 'points', layer: 'points1m', route: 'map', server: 'defaults', outcome: refusedBy('limits.maxMapFeatures', 100_000) },
  { kind: 'points', layer: 'points1m', route: 'map', server: 'manyFeatures', outcome: drawn },

  // One picture of a where= selection at 1000 × 1000 (polygons with lineWidth=0, lines with lineWidth=2, points with their default symbol).
  { kind: 'polygons', layer: 'polygons10k', route: 'images', where: 'v < 5000', server: 'manyIds', outcome: drawn },
  { kind: 'polygons', layer: 'polygons100k', route: 'images', where: 'v >= 0', server: 'manyIds', outcome: drawn },
  { kind: 'polygons', layer: 'polygons100k', route: 'images', where: 'v >= 0', server: 'defaults', outcome: refusedBy('limits.maxIds', 1000) },
  { kind: 'polygons', layer: 'polygons1m', route: 'images', where: 'v < 100000', server: 'manyIds', outcome: drawn },
  { kind: 'polygons', layer: 'polygons1m', route: 'images', where: 'v >= 0', server: 'manyIds', outcome: refusedBy('limits.maxIds', 200_000) },
  { kind: 'lines', layer: 'lines10k', route: 'images', where: 'v < 5000', server: 'manyIds', outcome: drawn },
  { kind: 'lines', layer: 'lines100k', route: 'images', where: 'v >= 0', server: 'manyIds', outcome: drawn },
  { kind: 'lines', layer: 'lines100k', route: 'images', where: 'v >= 0', server: 'defaults', outcome: refusedBy('limits.maxIds', 1000) },
  { kind: 'points', layer: 'points10k', route: 'images', where: 'v < 5000', server: 'manyIds', outcome: drawn },
  { kind: 'points', layer: 'points100k', route: 'images', where: 'v >= 0', server: 'manyIds', outcome: drawn },
  { kind: 'points', layer: 'points100k', route: 'images', where: 'v >= 0', server: 'defaults', outcome: refusedBy('limits.maxIds', 1000) },
  { kind: 'points', layer: 'points1m', route: 'images', where: 'v < 100000', server: 'manyIds', outcome: drawn },
];
