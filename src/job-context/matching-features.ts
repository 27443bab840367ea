/**
 * The features of an open shapefile a CQL2 text filter selects, on a drawing worker: the
 * filter is compiled against the file's fields, then the `.dbf` is read in one pass with
 * only the fields it names (no geometry), or, when ids are listed, only those rows are read.
 * One copy for both its users: `where=` on images and maps (drawing/select-features.ts) and
 * /ogc's `filter` (ogc-jobs/feature-selection.ts).
 */
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import { compileFilter } from '../filter/index.ts';
import type { OpenShapefile } from '../shapefile/file-set.ts';

export interface MatchOptions {
  /** Test only these features (in this order, repeats kept) instead of scanning the file. */
  fids?: number[];
  /** A scan stops once it has more than this many matches: past a request's limit the rest need not be known. */
  keep: number;
  /** A scan leaves out features with nothing to draw (images and maps); /ogc lists them. */
  drawableOnly: boolean;
}

export interface Matches {
  /** In record order for a scan, in the listed order for `fids`; at most `keep`. */
  fids: Uint32Array;
  /** Whether more than `keep` features match. */
  more: boolean;
}

/** A cancellation check every 256 rows (a LIKE may cost 65,000 steps a row), besides the one per chunk of the file. */
const ROWS_PER_CHECKPOINT_MASK = 255;
/** A scan asks whether its matches have geometry this many at a time: their record starts are read together. */
const DRAWABLE_BATCH = 4096;

/** The features of an open shapefile that `where` selects. */
export function matchingFeatures(shapefile: OpenShapefile, where: string, options: MatchOptions, checkpoint: Checkpoint): Matches {
  const filter = compileFilter(where, shapefile.fields);
  if (options.fids) {
    // A listed feature is kept or dropped as it is: a null shape listed in fid is a 404, as without where.
    const fids = options.fids.filter((fid) => filter.matches(shapefile.readAttributes(fid)));
    return { fids: Uint32Array.from(fids.slice(0, options.keep)), more: fids.length > options.keep };
  }
  const found: number[] = [];
  let batch: number[] = [];
  // With drawableOnly, features are those that can be drawn, as a map of the whole file draws only those.
  const keepDrawable = () => {
    const drawable = options.drawableOnly ? shapefile.drawable(batch) : undefined;
    batch.forEach((row, i) => {
      if (!drawable || drawable[i]) found.push(row);
    });
    batch = [];
    return found.length > options.keep;
  };
  for (const { row, values } of shapefile.attributeRows(filter.fields, checkpoint)) {
    // A costly filter (LIKE patterns over long text) must still stop within its budget.
    if ((row & ROWS_PER_CHECKPOINT_MASK) === 0) checkpoint();
    if (!filter.matches(values)) continue;
    batch.push(row);
    if (batch.length === DRAWABLE_BATCH && keepDrawable()) break;
  }
  const more = keepDrawable() || found.length > options.keep;
  return { fids: Uint32Array.from(found.slice(0, options.keep)), more };
}
