import type { KeyGrant } from '../auth/keys.ts';
import { NotFoundError } from '../errors.ts';
import { childOf } from '../geometry/children.ts';
import type { Geometry } from '../geometry/types.ts';
import type { FeatureRef } from '../params/fid.ts';
import type { Shapefile, ShapefileCatalog } from '../shapefile/types.ts';

export interface SelectedFeature {
  ref: FeatureRef;
  geometry: Geometry;
}

/** A shapefile the key may not see answers exactly as one that does not exist. */
export async function openForKey(
  catalog: ShapefileCatalog,
  name: string,
  grant: KeyGrant,
): Promise<Shapefile> {
  const allowed = grant.shapefiles === undefined || grant.shapefiles.has(name.toLowerCase());
  const shapefile = allowed ? await catalog.open(name) : undefined;
  if (!shapefile) throw new NotFoundError(`Shapefile '${name}' was not found.`);
  return shapefile;
}

/** Reads the listed features (each record once, however often it is listed), in list order. */
export async function readFeatures(
  shapefile: Shapefile,
  refs: readonly FeatureRef[],
  useCache: boolean,
): Promise<SelectedFeature[]> {
  const parents = [...new Set(refs.map((ref) => ref.parent))];
  const geometries = await Promise.all(parents.map((parent) => shapefile.readGeometry(parent, { useCache })));
  const byParent = new Map(parents.map((parent, i) => [parent, geometries[i]]));
  return refs.map((ref) => ({ ref, geometry: select(shapefile.name, ref, byParent.get(ref.parent)!) }));
}

function select(file: string, ref: FeatureRef, geometry: Geometry | null): Geometry {
  if (geometry === null) throw new NotFoundError(`Feature ${ref.parent} of shapefile '${file}' has no geometry (a null shape).`);
  if (ref.child === undefined) return geometry;
  const child = childOf(geometry, ref.child);
  if (!child) throw new NotFoundError(`Feature ${ref.parent} of shapefile '${file}' has no child ${ref.child} (fid '${ref.text}').`);
  return child;
}
