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
}

export interface Selection extends Timed {
  /** The matching ids: in record order for a scan, in the listed order for `fids`; at most `keep`. */
  fids: number[];
  /** How many features match in all. */
  matched: number;
}

export function selectFeatures(job: SelectJob, { shapefiles, checkpoint, lap }: DrawingContext): Handled {
  const shapefile = shapefiles.open(job.files, checkpoint);
  lap('open');
  const filter = compileFilter(job.where, shapefile.fields);
  const fids: number[] = [];
  let matched = 0;
  const take = (fid: number) => {
    if (matched++ < job.keep) fids.push(fid);
  };
  if (job.fids) {
    for (const fid of job.fids) if (filter.matches(shapefile.readAttributes(fid))) take(fid);
  } else {
    for (const { row, values } of shapefile.attributeRows(filter.fields, checkpoint)) if (filter.matches(values)) take(row);
  }
  lap('select');
  return { result: { fids, matched } satisfies Omit<Selection, 'stages'> };
}
