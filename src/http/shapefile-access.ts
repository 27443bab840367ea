/**
 * The access step: which shapefile a request may read, decided in one place for every route
 * that reads one. The image and map routes name it as a middleware between their parameters
 * and caching; the /ogc routes call it first once their query is read. A key limited to some
 * shapefiles finds the others exactly as it finds names that do not exist (decisions.md,
 * "Errors"), so no answer tells the two apart; and what comes after (caching, the work) takes
 * the files as given and checks nothing itself.
 */
import type { MiddlewareHandler } from 'hono';
import type { KeyGrant } from '../auth/keys.ts';
import { echo, NotFoundError } from '../errors.ts';
import type { DataFolder } from '../shapefile/data-folder.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';
import type { AppEnv } from './context.ts';

/**
 * The files of shapefile `name`; undefined when the folder has none or the key may not see it.
 * The caller says the 404 in its own words (an image's parameter, an /ogc collection's path).
 */
export async function visibleShapefile(catalog: DataFolder, name: string, grant: KeyGrant): Promise<ShapefileFiles | undefined> {
  const allowed = grant.shapefiles === undefined || grant.shapefiles.has(name.toLowerCase());
  return allowed ? await catalog.find(name) : undefined;
}

/** Every shapefile of the folder that the key may see and that is still there, in the catalog's order. */
export async function visibleShapefiles(catalog: DataFolder, grant: KeyGrant): Promise<ShapefileFiles[]> {
  const found = await Promise.all((await catalog.names()).map((name) => visibleShapefile(catalog, name, grant)));
  return found.filter((files) => files !== undefined);
}

/**
 * The access step of a route whose validated query names the shapefile in `file`: hands its
 * files on as `shapefile`; 404 when there is none, or the key may not see it (one sentence for both).
 */
export function requireShapefile(catalog: DataFolder): MiddlewareHandler<AppEnv, string, { out: { query: { file: string } } }> {
  return async (c, next) => {
    const { file } = c.req.valid('query');
    const files = await visibleShapefile(catalog, file, c.get('grant'));
    if (!files) throw new NotFoundError(`Shapefile '${echo(file)}' was not found.`);
    c.set('shapefile', files);
    await next();
  };
}
