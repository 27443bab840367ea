/**
 * A `where=` (CQL2 text) selection, on a drawing worker: the filter is compiled against the
 * file's fields, then the `.dbf` is read in one pass with only the fields it names (no
 * geometry), or, when the request lists ids, only those rows are read.
 */
import type { Handled } from '../workers/serve-jobs.ts';
import { compileFilter } from '../filter/index.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';
import type { DrawingContext, Timed } from './context.ts';

export interface SelectJob {
  files: ShapefileFiles;
  where: string;
  /** Test only these features (in this order, repeats kept) instead of scanning the file. */
  fids?: number[];
  /** Matching ids kept at most; the rest are only counted. */
  keep: number;
  /** A scan leaves out features with nothing to draw (images and maps); /ogc lists them. */
  drawableOnly: boolean;
}

export interface Selection extends Timed {
  /** The matching ids: in record order for a scan, in the listed order for `fids`; at most `keep`. */
  fids: number[];
  /** How many features match in all. */
  matched: number;
}

/** A cancellation check every 256 rows (a LIKE may cost 65,000 steps a row), besides the one per chunk of the file. */
const ROWS_PER_CHECKPOINT_MASK = 255;

export function selectFeatures(job: SelectJob, { shapefiles, checkpoint, lap }: DrawingContext): Handled {
  const shapefile = shapefiles.open(job.files, checkpoint);
  lap('open');
  const filter = compileFilter(job.where, shapefile.fields);
  const fids: number[] = [];
  let matched = 0;
  if (job.fids) {
    // A listed feature is kept or dropped as it is: a null shape listed in fid is a 404, as without where.
    for (const fid of job.fids) {
      if (filter.matches(shapefile.readAttributes(fid)) && matched++ < job.keep) fids.push(fid);
    }
  } else {
    // With drawableOnly, features are those that can be drawn, as a map of the whole file
    // draws only those. Past `keep` the request is refused anyway: matches are only counted
    // then, without reading the record for each.
    for (const { row, values } of shapefile.attributeRows(filter.fields, checkpoint)) {
      // A costly filter (LIKE patterns over long text) must still stop within its budget.
      if ((row & ROWS_PER_CHECKPOINT_MASK) === 0) checkpoint();
      if (!filter.matches(values)) continue;
      if (matched >= job.keep) {
        matched++;
      } else if (!job.drawableOnly || shapefile.drawsGeometry(row)) {
        fids.push(row);
        matched++;
      }
    }
  }
  lap('select');
  return { result: { fids, matched } satisfies Omit<Selection, 'stages'> };
}
