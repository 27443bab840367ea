/**
 * The features a fid list names, on a drawing worker: their vertices bounded from the index
 * before any is decoded, then each record read once. Shared by images, maps and /ogc's pages.
 */
import { NotFoundError } from '../errors.ts';
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import type { Lap } from '../stages.ts';
import { childShape, type Shape } from '../geometry/shape.ts';
import type { FeatureRef } from '../params/fid.ts';
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
  let vertices = 0;
  const bounds = new Map<number, number>();
  for (const { parent } of refs) {
    let bound = bounds.get(parent);
    if (bound === undefined) bounds.set(parent, (bound = shapefile.vertexBound(parent)));
    vertices += bound;
  }
  if (vertices > limit) throw refuse(vertices);
}

/** Reads the listed features (each record once, however often it is listed), in list order. */
export function readFeatures(shapefile: OpenShapefile, refs: readonly FeatureRef[], options: ReadOptions): SelectedShape[] {
  const records = new Map<number, Shape | null>();
  return refs.map((ref) => {
    let shape = records.get(ref.parent);
    if (shape === undefined) records.set(ref.parent, (shape = shapefile.readShape(ref.parent, options)));
    return { ref, shape: select(shapefile.name, ref, shape) };
  });
}

function select(file: string, ref: FeatureRef, shape: Shape | null): Shape {
  if (shape === null) throw new NotFoundError(`Feature ${ref.parent} of shapefile '${file}' has no geometry (a null shape).`);
  if (ref.child === undefined) return shape;
  const child = childShape(shape, ref.child);
  if (!child) throw new NotFoundError(`Feature ${ref.parent} of shapefile '${file}' has no child ${ref.child} (fid '${ref.text}').`);
  return child;
}
