/**
 * Every job the drawing workers run, declared once: its kind, what it is given and what it
 * answers. The pool's run() (job-pool.ts) and the worker's handlers (worker.ts) are both
 * typed from this table, so a caller and the handler it reaches cannot disagree on a kind's
 * name or on the shape of what crosses between the threads. A new job: its handler in the
 * folder it belongs to (drawing/, ogc-jobs/), a row here, and the compiler asks for the rest.
 */
import type { ClassifyJob } from '../drawing/classify-features.ts';
import type { ImageJob } from '../drawing/draw-image.ts';
import type { MapJob } from '../drawing/draw-map.ts';
import type { DrawnImage } from '../drawing/drawn-image.ts';
import type { DrawnLegend, LegendJob } from '../drawing/draw-legend.ts';
import type { DrawnTile, TileJob } from '../drawing/draw-tile.ts';
import type { BasemapTileJob } from '../drawing/draw-basemap-tile.ts';
import type { MapFeatures, MapFeaturesJob } from '../drawing/map-features.ts';
import type { InViewQuery, RecordsInView } from '../drawing/records-in-view.ts';
import type { SelectJob } from '../drawing/select-features.ts';
import type { CollectionsJob, DescribedCollections, ItemFeature, ItemJob, ItemsJob, ItemsPage } from '../ogc-jobs/feature-items.ts';
import type { DrawingContext } from '../job-context/context.ts';
import type { Matches } from '../job-context/matching-features.ts';
import type { Classification } from '../thematic/classification.ts';
import type { Handled } from '../workers/serve-jobs.ts';

interface Jobs {
  /** One image of the images operation, with its part of the answer. */
  image: { input: ImageJob; output: DrawnImage };
  /** A map's first step: the file's extent and the listed features, in Web Mercator. */
  'map-features': { input: MapFeaturesJob; output: MapFeatures };
  /** A map without fid: the records in its view, its budgets checked over them. */
  'map-in-view': { input: InViewQuery; output: RecordsInView };
  /** A map's last step: drawn over its basemap, with its part of the answer. */
  map: { input: MapJob; output: DrawnImage };
  /** One tile of a layer, raster or vector (docs/tiles.md). */
  tile: { input: TileJob; output: DrawnTile };
  /** One tile of the configured basemap, for a slippy map's raster source. */
  'basemap-tile': { input: BasemapTileJob; output: { bytes: Uint8Array } };
  /** The legend route's picture: a styled request's legend alone, as PNG or SVG. */
  legend: { input: LegendJob; output: DrawnLegend };
  /** The features a `where=` filter selects, for images and maps. */
  select: { input: SelectJob; output: Matches };
  /** `styleBy=` and a theme's rules: the classes of a field, or the features each rule styles, over what a picture draws. */
  classify: { input: ClassifyJob; output: Classification };
  /** OGC API – Features: the collections, a page of items, one item. */
  collections: { input: CollectionsJob; output: DescribedCollections };
  items: { input: ItemsJob; output: ItemsPage };
  item: { input: ItemJob; output: ItemFeature };
}

export type JobKind = keyof Jobs;
export type JobInput<K extends JobKind> = Jobs[K]['input'];
/** What a job's handler answers. */
export type JobResult<K extends JobKind> = Jobs[K]['output'];
/** What the pool hands its caller: the handler's answer, and the milliseconds of each stage of the job (Server-Timing). */
export type JobOutput<K extends JobKind> = JobResult<K> & Timed;

export interface Timed {
  stages: Record<string, number>;
}

/** The worker's side of the table: a handler for every kind, taking its input and answering its result. */
export type JobHandlers = {
  [K in JobKind]: (input: JobInput<K>, context: DrawingContext) => Handled<JobResult<K>> | Promise<Handled<JobResult<K>>>;
};
