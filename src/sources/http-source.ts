/**
 * Shapefiles on any HTTP(S) server that honours range requests (nginx, a CDN, a bucket's
 * public website): the catalog from the server's JSON directory listing or a
 * `shapeshot-catalog.json` beside the files, a file's size and version from a HEAD, its bytes
 * by `Range` requests, never the whole file.
 *
 * A version is the file's size and Last-Modified (to the second): the listing carries both
 * (it has no ETag), every answer carries both (Last-Modified, and the size in Content-Range),
 * so one version serves from list() and stat() alike. A versioned read sends it as
 * `If-Unmodified-Since` and checks the answer's own, so a file replaced between two reads is
 * told even by a server that ignores the precondition.
 */
import { boundedBody } from '../plugin-contract/bounded-body.ts';
import { DataSourceUnavailableError, FileChangedError } from '../plugin-contract/data-source-errors.ts';
import type { DataSource, SourceEntry, SourceStat } from '../plugin-contract/data-source-plugin.ts';
import { fetchRange } from './fetch-range.ts';
import { statOfHead, type VersionOf } from './head-answer.ts';
import { isPlainName, parseJsonCatalog } from './json-catalog.ts';
import { TransientFailure, withOneRetry } from './one-retry.ts';
import { sourceRequest } from './source-request.ts';

export interface HttpSourceOptions {
  /** The folder's URL, `http://` or `https://`; a trailing slash is added when missing. */
  url: string;
  /** Each request's time limit (default 10 s); a request that times out is tried once more. */
  timeoutMs?: number;
  userAgent?: string;
  /** The largest listing read (default 16 MiB): a listing is the one answer read whole. */
  maxCatalogBytes?: number;
}

export const CATALOG_FILE = 'shapeshot-catalog.json';
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_CATALOG_BYTES = 16 << 20;

/** The version of a file of `size` bytes last modified at `modifiedMs`: Last-Modified has whole seconds. */
export function httpVersion(size: number, modifiedMs: number): string {
  return `${size}@${Math.floor(modifiedMs / 1000)}`;
}

export function createHttpSource(options: HttpSourceOptions): DataSource {
  const base = new URL(options.url);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error(`The data source URL must start with http:// or https://; got '${base.protocol}'.`);
  // fetch() refuses URLs with credentials in them; said here, not as an unreachable source at the first read.
  if (base.username || base.password) throw new Error('The data source URL must not hold a user or password; give the server a token in the query or serve it openly to shapeshot.');
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  // Names the folder, never what may authorize it: user and password, or a token in the query.
  const description = `${base.origin}${base.pathname}`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxCatalogBytes = options.maxCatalogBytes ?? DEFAULT_MAX_CATALOG_BYTES;
  const headers: Record<string, string> = options.userAgent ? { 'user-agent': options.userAgent } : {};

  const urlOf = (name: string) => {
    const url = new URL(encodeURIComponent(name), base);
    url.search = base.search;
    return url;
  };

  /** A whole small answer (a listing), or undefined for a 404; the other failures are the source's. */
  const getText = (url: URL, signal: AbortSignal) =>
    withOneRetry(
      async (attemptSignal) => {
        const response = await sourceRequest(url, { ...headers, accept: 'application/json' }, attemptSignal);
        if (response.status === 404 || response.status === 403) {
          await response.body?.cancel();
          return undefined;
        }
        if (response.status !== 200) {
          await response.body?.cancel();
          const answered = `it answered ${response.status} to a request for its catalog`;
          throw response.status >= 500 ? new TransientFailure(answered) : new DataSourceUnavailableError(description, `${answered}.`, null);
        }
        const bytes = await boundedBody(response, maxCatalogBytes);
        if (bytes === undefined) throw new DataSourceUnavailableError(description, `its catalog is larger than ${maxCatalogBytes} bytes.`, null);
        return new TextDecoder().decode(bytes);
      },
      { source: description, timeoutMs, signal },
    );

  const source: DataSource = {
    describe: () => description,

    async list(signal): Promise<SourceEntry[]> {
      const listing = await getText(base, signal);
      const fromListing = listing === undefined ? undefined : parseJsonCatalog(listing, httpVersion);
      if (fromListing !== undefined) return fromListing;
      const catalog = await getText(urlOf(CATALOG_FILE), signal);
      const fromCatalog = catalog === undefined ? undefined : parseJsonCatalog(catalog, httpVersion);
      if (fromCatalog !== undefined) return fromCatalog;
      throw new DataSourceUnavailableError(
        description,
        `it has neither a JSON directory listing (nginx: autoindex on; autoindex_format json;) nor a ${CATALOG_FILE} holding one.`,
        null,
      );
    },

    async stat(name, signal): Promise<SourceStat | undefined> {
      if (!isPlainName(name)) return undefined;
      return withOneRetry(
        async (attemptSignal) => {
          const response = await sourceRequest(urlOf(name), { ...headers, 'accept-encoding': 'identity' }, attemptSignal, 'HEAD');
          await response.body?.cancel();
          return statOfHead(response, { source: description, name, versionOf });
        },
        { source: description, timeoutMs, signal },
      );
    },

    async read(name, offset, length, signal, version) {
      if (!isPlainName(name)) throw new FileChangedError(description, name);
      const url = urlOf(name);
      const since = version === undefined ? undefined : secondsOfVersion(version);
      const requestHeaders = since === undefined ? headers : { ...headers, 'if-unmodified-since': new Date(since * 1000).toUTCString() };
      return fetchRange({
        source: description,
        file: name,
        offset,
        length,
        version,
        signal,
        timeoutMs,
        send: (range, attemptSignal) => sourceRequest(url, { ...requestHeaders, range }, attemptSignal),
        versionOf,
      });
    },
  };
  return source;
}

/** A file's version from an answer about it: its size and Last-Modified, as the listing has them. */
const versionOf: VersionOf = (_headers, size, modifiedMs) => httpVersion(size, modifiedMs);

function secondsOfVersion(version: string): number | undefined {
  const seconds = Number(version.slice(version.indexOf('@') + 1));
  return Number.isSafeInteger(seconds) ? seconds : undefined;
}
