/**
 * The features a fid list names, on a drawing worker: their vertices bounded from the index
 * before any is decoded, then each record read once (from a remote source, all a list's
 * missing bytes fetched together: readingEach). Shared by images, maps and /ogc's pages.
 */
import { NotFoundError } from '../errors.ts';
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import type { Lap } from '../stages.ts';
import { childShape, type Shape } from '../geometry/shape.ts';
import type { FeatureRef } from '../params/fid.ts';
import { readingEach } from '../shapefile/byte-reader.ts';
import type { OpenShapefile } from '../shapefile/file-set.ts';

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
  const parents = [...new Set(refs.map((ref) => ref.parent))];
  const bounds = new Map(readingEach(parents, (parent) => [parent, shapefile.vertexBound(parent)] as const));
  let vertices = 0;
  for (const { parent } of refs) vertices += bounds.get(parent)!;
  if (vertices > limit) throw refuse(vertices);
}

/** Reads the listed features (each record once, however often it is listed), in list order. */
export function readFeatures(shapefile: OpenShapefile, refs: readonly FeatureRef[], options: ReadOptions): SelectedShape[] {
  const parents = [...new Set(refs.map((ref) => ref.parent))];
  const records = new Map(readingEach(parents, (parent) => [parent, shapefile.readShape(parent, options)] as const));
  return refs.map((ref) => ({ ref, shape: select(shapefile.name, ref, records.get(ref.parent)!) }));
}

function select(file: string, ref: FeatureRef, shape: Shape | null): Shape {
  if (shape === null) throw new NotFoundError(`Feature ${ref.parent} of shapefile '${file}' has no geometry (a null shape).`);
  if (ref.child === undefined) return shape;
  const child = childShape(shape, ref.child);
  if (!child) throw new NotFoundError(`Feature ${ref.parent} of shapefile '${file}' has no child ${ref.child} (fid '${ref.text}').`);
  return child;
}
