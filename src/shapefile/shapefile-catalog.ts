/**
 * The shapefiles the service serves, by name: the one thing routes ask of the data, whether it
 * lies in a local folder (data-folder.ts) or in a remote source (sources/source-catalog.ts).
 */
import type { ShapefileFiles } from './file-set.ts';

/**
 * A request waits on its catalog with its own signal: what it waits for (a listing, a stat) may
 * be shared with other requests and run on, but the request stops waiting when its client goes
 * or its time is up, with the signal's reason (a 503 naming the time budget).
 */
export interface ShapefileCatalog {
  /** The shapefile named `name` (any case); undefined when the catalog has none. */
  find(name: string, signal?: AbortSignal): Promise<ShapefileFiles | undefined>;
  /** Names of every shapefile, as spelled in the folder or the source, sorted. */
  names(signal?: AbortSignal): Promise<readonly string[]>;
}
