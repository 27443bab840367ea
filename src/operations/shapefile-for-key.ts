import type { KeyGrant } from '../auth/keys.ts';
import { echo, NotFoundError } from '../errors.ts';
import type { DataFolder } from '../shapefile/data-folder.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';

/** The files of shapefile `name`; one the key may not see answers exactly as one that does not exist. */
export async function shapefileForKey(catalog: DataFolder, name: string, grant: KeyGrant): Promise<ShapefileFiles> {
  const allowed = grant.shapefiles === undefined || grant.shapefiles.has(name.toLowerCase());
  const files = allowed ? await catalog.find(name) : undefined;
  if (!files) throw new NotFoundError(`Shapefile '${echo(name)}' was not found.`);
  return files;
}
