/**
 * The features a fid list names, on a drawing worker: their vertices bounded from the index
 * before any is decoded, then each record read once, in merged runs (from a remote source,
 * all a list's missing bytes fetched together). Shared by images, maps and /ogc's pages.
 */
import { NotFoundError } from '../errors.ts';
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import type { Lap } from '../stages.ts';
import { childShape, type Shape } from '../geometry/shape.ts';
import type { FeatureRef } from '../params/fid.ts';
import type { OpenShapefile } from '../shapefile/file-set.ts';

/** Lists of at most this many features are read through the feature cache, as ids listed in a URL are. */
const CACHED_LIST_MAX = 1000;

export interface SelectedShape {
  ref: FeatureRef;
  shape: Shape;
}

export interface ReadOptions {
  useCache: boolean;
  maxRings: number;
  checkpoint: Checkpoint;
  lap?: Lap;
}

/**
 * The most vertices the listed features can hold, from their records' lengths in the
 * index, before anything is decoded; `limit` is exceeded: `refuse(count)` is thrown.
 */
export function checkVertexBound(shapefile: OpenShapefile, refs: readonly FeatureRef[], limit: number, refuse: (count: number) => Error): void {
  const bounds = perParent(refs, (parents) => shapefile.vertexBounds(parents));
  let vertices = 0;
  for (const { parent } of refs) vertices += bounds.get(parent)!;
  if (vertices > limit) throw refuse(vertices);
}

/** `read`'s answer for each distinct parent of `refs`, asked once for all of them in file order. */
export function perParent<T>(refs: readonly FeatureRef[], read: (parents: number[]) => ArrayLike<T>): Map<number, T> {
  const parents = [...new Set(refs.map((ref) => ref.parent))].sort((a, b) => a - b);
  const answers = read(parents);
  return new Map(parents.map((parent, i) => [parent, answers[i]]));
}

/**
 * Reads the listed features (each record once, however often it is listed, all of them in
 * merged runs in file order), in list order.
 */
export function readFeatures(shapefile: OpenShapefile, refs: readonly FeatureRef[], options: ReadOptions): SelectedShape[] {
  const records = perParent(refs, (parents) =>
    // A list longer than a page of ids is a selection drawn whole: kept, it would only push out what others use.
    shapefile.readShapes(parents, { ...options, useCache: options.useCache && parents.length <= CACHED_LIST_MAX }),
  );
  return refs.map((ref) => ({ ref, shape: select(shapefile.name, ref, records.get(ref.parent)!) }));
}

function select(file: string, ref: FeatureRef, shape: Shape | null): Shape {
  if (shape === null) throw new NotFoundError(`Feature ${ref.parent} of shapefile '${file}' has no geometry (a null shape).`);
  if (ref.child === undefined) return shape;
  const child = childShape(shape, ref.child);
  if (!child) throw new NotFoundError(`Feature ${ref.parent} of shapefile '${file}' has no child ${ref.child} (fid '${ref.text}').`);
  return child;
}
