/**
 * Links between /ogc resources: absolute, on the origin the request came to, and never
 * carrying the key (a client that follows them sends it in the X-API-Key header).
 */

export interface Link {
  href: string;
  rel: string;
  type?: string;
  title?: string;
  /** An href with {placeholders} for the client to fill (OGC API – Tiles' tile links). */
  templated?: boolean;
}

/** WGS 84 longitude/latitude, the CRS of every extent /ogc gives. */
export const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';

export const MEDIA_TYPES = {
  json: 'application/json',
  geojson: 'application/geo+json',
  jsonSchema: 'application/schema+json',
  openapi: 'application/vnd.oai.openapi+json;version=3.0',
  html: 'text/html',
} as const;

/** The OGC link relation of a collection's queryables (OGC API – Features Part 3). */
export const QUERYABLES_REL = 'http://www.opengis.net/def/rel/ogc/1.0/queryables';

/**
 * The same relation as Part 3's drafts named it, which GDAL 3.6's OAPIF driver (QGIS on Debian)
 * looks for: without the queryables it sends no filter and reads every page to filter itself.
 */
export const DRAFT_QUERYABLES_REL = 'queryables';

/**
 * `requestUrl` as clients outside reach it: on `publicUrl`'s origin and under its path when
 * one is configured (a proxy that terminates TLS, or serves the service under a prefix).
 */
export function publicRequestUrl(requestUrl: string, publicUrl: string | undefined): string {
  if (publicUrl === undefined) return requestUrl;
  const { pathname, search } = new URL(requestUrl);
  const base = new URL(publicUrl);
  return `${base.origin}${base.pathname.replace(/\/$/, '')}${pathname}${search}`;
}

/** The URL of the landing page, /ogc, on the origin (and under the path prefix) of `requestUrl`. */
export function ogcBase(requestUrl: string): string {
  const { origin, pathname } = new URL(requestUrl);
  return `${origin}${pathname.slice(0, pathname.toLowerCase().indexOf('/ogc'))}/ogc`;
}

export function collectionHref(base: string, name: string): string {
  return `${base}/collections/${encodeURIComponent(name)}`;
}

/** `requestUrl` without its key, with `changes` to its other parameters. */
export function requestHref(requestUrl: string, changes: Record<string, string> = {}): string {
  const url = new URL(requestUrl);
  url.searchParams.delete('key');
  for (const [name, value] of Object.entries(changes)) url.searchParams.set(name, value);
  return url.href;
}
