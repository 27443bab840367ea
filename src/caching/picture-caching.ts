/**
 * HTTP caching of image and map answers (docs/decisions.md, "Images for screens and caches"):
 * an ETag from the facts that determine the picture, worked out before anything is drawn,
 * so that a client whose copy is current gets 304 for the price of a catalog look-up and a
 * few stats. The shapefile comes from the access step before it (http/shapefile-access.ts),
 * which has checked the key's scope: caching decides only what is cached.
 */
import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config/schema.ts';
import type { AppEnv } from '../http/context.ts';
import type { Format } from '../params/fields.ts';
import { setCacheControl } from './cache-control.ts';
import { entityTag } from './entity-tag.ts';
import { ifNoneMatchMatches } from './if-none-match.ts';
import { serviceIdentity } from './service-identity.ts';
import { shapefileVersions } from './shapefile-version.ts';

/** What every validated image or map request holds, besides the parameters particular to it. */
export interface PictureRequest {
  file: string;
  noCache: boolean;
  /** An operation's format, or what a tiles route answers (a tile's png or mvt, a TileJSON, a style). */
  format: Format | string;
}

/** The envelopes carry a TraceId of their own, so equal facts give equivalent, not equal, bytes. */
const ENVELOPE_FORMATS: ReadonlySet<string> = new Set<Format>(['xml', 'json']);

/**
 * Middleware for a route whose query is validated into a PictureRequest and whose shapefile
 * the access step has found: 304 when the client's copy is current (If-None-Match), else the
 * route's answer with ETag, Last-Modified, Cache-Control and Vary. `settingsOf` names the
 * configured settings beyond the request that shape the picture (a map's basemap providers).
 */
export function cachedPicture<R extends PictureRequest>(
  config: Pick<Config, 'render' | 'envelope' | 'http' | 'fileCheckMs' | 'limits'>,
  settingsOf: (request: R) => unknown = () => undefined,
): MiddlewareHandler<AppEnv, string, { out: { query: R } }> {
  const service = serviceIdentity(config);
  const { cacheControl } = config.http;
  const shapefileVersion = shapefileVersions(config.fileCheckMs);
  return async (c, next) => {
    const request = c.req.valid('query');
    const files = c.get('shapefile');
    const version = await shapefileVersion(files);
    c.get('timing')?.lap('catalog');
    c.set('shapefileVersion', version.files);
    // The catalog's spelling stands for `file` (any case names the same picture); noCache
    // changes where the bytes are read from, not what they are.
    const { file: _file, noCache: _noCache, ...parameters } = request;
    const etag = entityTag(
      { service, shapefile: { name: files.name, files: version.files }, parameters, settings: settingsOf(request) },
      ENVELOPE_FORMATS.has(request.format),
    );
    // Set on the context before the answer is made, not on the answer after: touching a made
    // answer's headers costs the Node adapter its fast path (0.1 ms a request). An error
    // answer takes them off again (respond.ts): errors are not cached.
    setCacheControl(c, request.noCache ? 'no-store' : cacheControl);
    c.header('ETag', etag);
    if (ifNoneMatchMatches(c.req.header('If-None-Match'), etag)) return c.body(null, 304);
    if (version.lastModified) c.header('Last-Modified', version.lastModified.toUTCString());
    await next();
  };
}
