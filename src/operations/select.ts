/**
 * The main thread's side of the `where=` selection of images and maps: a worker scans the `.dbf`,
 * and here its ids become the request's fid list, or the 404 of nothing matching, or the 400 of
 * too much, before anything is drawn (docs/decisions.md, "Browsing and selecting").
 */
import type { JobPool } from '../jobs/job-pool.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { featureList, wholeFeatures, type FeatureList, type FeatureRef } from '../params/fid.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';
import type { RequestTiming } from '../stages.ts';

export interface SelectionLimit {
  /** The configured limit's name, for the message. */
  name: string;
  max: number;
}

/**
 * The fid list a `where=` filter gives (docs/decisions.md): alone, every matching feature in
 * record order; with `fid`, that list in its order less the entries whose feature does not
 * match. Nothing matching is a 404; more than `limit` a 400 (the scan stops past the limit).
 */
export async function selectRefs(
  drawing: JobPool,
  files: ShapefileFiles,
  where: string,
  listed: FeatureRef[] | undefined,
  limit: SelectionLimit,
  signal: AbortSignal,
  timing?: RequestTiming,
): Promise<FeatureList> {
  const fids = listed && [...new Set(listed.map((ref) => ref.parent))];
  // The ids cross back in one buffer (select-features.ts) and stay packed: the event loop never holds one object per feature.
  // A list is within the limit already; a scan stops past it.
  const selection = await drawing.run('select', { files, where, fids, keep: fids ? fids.length : limit.max, drawableOnly: true }, signal);
  timing?.job(selection.stages);
  if (selection.fids.length === 0) {
    throw new NotFoundError(`No feature ${listed ? 'listed in fid ' : ''}of shapefile '${files.name}' matches the filter in 'where'.`);
  }
  if (listed) {
    const matching = new Set(selection.fids);
    return featureList(listed.filter((ref) => matching.has(ref.parent)));
  }
  if (selection.more) {
    throw new BadRequestError(
      `The filter in 'where' selects more than ${limit.max} features of shapefile '${files.name}'; at most ${limit.max} ` +
        `(${limit.name}) are allowed in one request. Narrow the filter.`,
    );
  }
  return wholeFeatures(selection.fids);
}
