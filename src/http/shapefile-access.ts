/**
 * The access step: which shapefile a request may read, decided in one place for every route
 * that reads one. The image and map routes name it as a middleware between their parameters
 * and caching; the /ogc routes call it first once their query is read. A key limited to some
 * shapefiles finds the others exactly as it finds names that do not exist (docs/decisions.md,
 * "Errors"), so no answer tells the two apart; and what comes after (caching, the work) takes
 * the files as given and checks nothing itself.
 */
import type { MiddlewareHandler } from 'hono';
import type { KeyGrant } from '../auth/keys.ts';
import { echo, NotFoundError } from '../errors.ts';
import type { ShapefileCatalog } from '../shapefile/shapefile-catalog.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';
import type { AppEnv } from './context.ts';

/**
 * The files of shapefile `name`; undefined when the folder has none or the key may not see it.
 * The caller says the 404 in its own words (an image's parameter, an /ogc collection's path).
 */
export async function visibleShapefile(catalog: ShapefileCatalog, name: string, grant: KeyGrant, signal?: AbortSignal): Promise<ShapefileFiles | undefined> {
  return maySee(grant, name) ? await catalog.find(name, signal) : undefined;
}

function maySee(grant: KeyGrant, name: string): boolean {
  return grant.shapefiles === undefined || grant.shapefiles.has(name.toLowerCase());
}

/** Entries `offset` to `offset + limit` (exclusive) of a list. */
export interface PageRange {
  offset: number;
  limit: number;
}

export interface VisibleShapefilesPage {
  /** How many shapefiles the key may see in all. */
  numberMatched: number;
  /** Those of the page that are still there, in the catalog's order. */
  files: ShapefileFiles[];
  /** Those of the page the source refused to read, a sentence each naming the file: left out of the page. */
  refused: string[];
}

/**
 * A catalog that checks a page's shapefiles before they are described: a remote source's
 * (sources/source-catalog.ts), which reads their opening bytes and leaves out a file the source
 * refuses. A local folder has no such step: its files are opened by the workers themselves.
 */
interface CheckingCatalog extends ShapefileCatalog {
  check(shapefiles: readonly ShapefileFiles[], signal: AbortSignal | undefined): Promise<{ passed: ShapefileFiles[]; refused: string[] }>;
}

function checksPages(catalog: ShapefileCatalog): catalog is CheckingCatalog {
  return typeof (catalog as Partial<CheckingCatalog>).check === 'function';
}

/**
 * One page of the shapefiles the key may see, in the catalog's order (its names are sorted, so
 * pages follow one another whatever was asked before). Only the page's names are looked up: for a
 * remote source a look-up costs requests, so a page costs the same for 10 files or 100,000
 * (docs/decisions.md, "At size"); of the others, only the names are held. A file listed but gone by
 * its look-up, or one the source refuses to read, is left out of the page, and still counted.
 */
export async function visibleShapefilesPage(catalog: ShapefileCatalog, grant: KeyGrant, { offset, limit }: PageRange, signal?: AbortSignal): Promise<VisibleShapefilesPage> {
  const names = await catalog.names(signal);
  const visible = grant.shapefiles === undefined ? names : names.filter((name) => maySee(grant, name));
  const found = await Promise.all(visible.slice(offset, offset + limit).map((name) => catalog.find(name, signal)));
  const files = found.filter((files) => files !== undefined);
  if (!checksPages(catalog)) return { numberMatched: visible.length, files, refused: [] };
  const { passed, refused } = await catalog.check(files, signal);
  return { numberMatched: visible.length, files: passed, refused };
}

/**
 * The access step of a route whose validated query names the shapefile in `file`: hands its
 * files on as `shapefile`; 404 when there is none, or the key may not see it (one sentence for both).
 */
export function requireShapefile(catalog: ShapefileCatalog): MiddlewareHandler<AppEnv, string, { out: { query: { file: string } } }> {
  return async (c, next) => {
    const { file } = c.req.valid('query');
    const files = await visibleShapefile(catalog, file, c.get('grant'), c.get('signal'));
    if (!files) throw new NotFoundError(`Shapefile '${echo(file)}' was not found.`);
    c.set('shapefile', files);
    await next();
  };
}
