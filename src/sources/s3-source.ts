/**
 * Shapefiles in an S3 bucket, or any store that speaks S3 (MinIO, R2, Ceph RGW, s3rver):
 * `s3://bucket/prefix/`. The catalog comes from ListObjectsV2 (every page, by continuation
 * token), a file's size and version from a HEAD, its bytes by range GETs. Requests are signed
 * with SigV4 by aws4fetch (runtime-agnostic, on fetch); without credentials they go unsigned,
 * for public buckets.
 *
 * A version is the object's ETag and Last-Modified (to the second): ListObjectsV2 and HEAD
 * report both. A versioned read sends the ETag as `If-Match` and checks the answer's ETag, so
 * a replaced object is told even by a store that ignores the precondition.
 *
 * Addressing: path-style (`endpoint/bucket/key`) or virtual-host (`bucket.endpoint/key`).
 * With an `endpoint` (a store of one's own) path-style is the default, as most of them need;
 * on AWS, virtual-host, as AWS prefers.
 */
import { AwsClient } from 'aws4fetch';
import { boundedBody } from '../plugin-contract/bounded-body.ts';
import { DataSourceUnavailableError, FileChangedError } from '../plugin-contract/data-source-errors.ts';
import type { DataSource, SourceEntry, SourceStat } from '../plugin-contract/data-source-plugin.ts';
import { fetchRange } from './fetch-range.ts';
import { statOfHead, type VersionOf } from './head-answer.ts';
import { isPlainName, wholeSeconds } from './json-catalog.ts';
import { TransientFailure, withOneRetry } from './one-retry.ts';
import { sourceRequest } from './source-request.ts';
import { parseListingPage } from './s3-listing.ts';

export interface S3SourceOptions {
  /** `s3://bucket/prefix/` (the prefix may be empty). */
  url: string;
  /** An S3-compatible store's URL (`http://127.0.0.1:9000`); default AWS_ENDPOINT_URL_S3, then AWS_ENDPOINT_URL (as the AWS SDKs read them), then AWS's regional endpoint. */
  endpoint?: string;
  /** Default AWS_REGION, then AWS_DEFAULT_REGION, then us-east-1. */
  region?: string;
  /** Default AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN. */
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
  /** Path-style addressing; default true with an `endpoint`, false without. */
  pathStyle?: boolean;
  /** Each request's time limit (default 10 s); a request that times out is tried once more. */
  timeoutMs?: number;
  /** Keys per ListObjectsV2 page (S3's default, and most, is 1000). */
  listPageSize?: number;
  /**
   * The most keys a listing reads (default 100,000), as an HTTP listing's bytes are bounded:
   * the catalog is grouped and sorted on the main thread, and a bucket's prefix can hold millions.
   * It reads as many ListObjectsV2 pages as these keys fill at `listPageSize` a page, and no more.
   */
  maxCatalogKeys?: number;
  /** Where the AWS_* variables are read; default the process's environment. */
  env?: Record<string, string | undefined>;
  userAgent?: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_CATALOG_KEYS = 100_000;
/** S3's most keys a page, and its default. */
const DEFAULT_PAGE_SIZE = 1000;
/** A listing page is a few hundred bytes a key: 1000 keys stay far below this. */
const MAX_PAGE_BYTES = 8 << 20;

/**
 * The most ListObjectsV2 pages one listing reads: as many as `maxKeys` keys fill at `pageSize`
 * a page (S3 counts a page's folders, CommonPrefixes, among its keys), so that a store whose
 * pages hold no keys, or folders only, is not read for ever (docs/configuration.md).
 */
function listingPageBound(maxKeys: number, pageSize: number): number {
  return Math.max(1, Math.ceil(maxKeys / pageSize));
}

/** The version of an object with `etag`, last modified at `modifiedMs`: Last-Modified has whole seconds. */
export function s3Version(etag: string, modifiedMs: number): string {
  return `${etag}@${Math.floor(modifiedMs / 1000)}`;
}

export function createS3Source(options: S3SourceOptions): DataSource {
  const env = options.env ?? process.env;
  const { bucket, prefix } = parseS3Url(options.url);
  const region = options.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1';
  const ownEndpoint = options.endpoint ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
  const endpoint = new URL(ownEndpoint ?? `https://s3.${region}.amazonaws.com`);
  const pathStyle = options.pathStyle ?? ownEndpoint !== undefined;
  const bucketUrl = pathStyle ? new URL(`${endpoint.origin}/${encodeURIComponent(bucket)}/`) : new URL(`${endpoint.protocol}//${bucket}.${endpoint.host}/`);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const headers: Record<string, string> = options.userAgent ? { 'user-agent': options.userAgent } : {};
  // Names the bucket and where it is, never the credentials or a signed URL.
  const description = `s3://${bucket}/${prefix}${ownEndpoint === undefined ? '' : ` at ${endpoint.origin}`}`;

  const accessKeyId = options.accessKeyId ?? env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = options.secretAccessKey ?? env.AWS_SECRET_ACCESS_KEY;
  const sessionToken = options.sessionToken ?? env.AWS_SESSION_TOKEN;
  // retries: 0, since one-retry.ts retries, once; aws4fetch's own retries would wait and try ten times.
  const client =
    accessKeyId && secretAccessKey ? new AwsClient({ accessKeyId, secretAccessKey, sessionToken, region, service: 's3', retries: 0 }) : undefined;

  /** The request, signed when there are credentials; signed anew for each attempt, as a signature carries its time. */
  const signed = async (url: URL, init: { method?: string; headers?: Record<string, string> }) => {
    const all = { ...headers, ...init.headers };
    return client ? await client.sign(url.toString(), { method: init.method ?? 'GET', headers: all }) : new Request(url, { ...init, headers: all });
  };
  /**
   * A request, signed, by the runtime's cheapest and surest client (source-request.ts). A store
   * that redirects is misconfigured (a wrong region answers 301): its 3xx is the answer, refused.
   */
  const send = async (url: URL, init: { method?: 'GET' | 'HEAD'; headers?: Record<string, string> }, signal: AbortSignal) => {
    const request = await signed(url, init);
    const signedHeaders: Record<string, string> = {};
    request.headers.forEach((value, name) => (signedHeaders[name] = value));
    return sourceRequest(new URL(request.url), signedHeaders, signal, init.method);
  };

  const objectUrl = (name: string) => new URL(`${prefix}${name}`.split('/').map(encodeURIComponent).join('/'), bucketUrl);

  const listPage = (token: string | undefined, signal: AbortSignal) =>
    withOneRetry(
      async (attemptSignal) => {
        const url = new URL(bucketUrl);
        url.searchParams.set('list-type', '2');
        url.searchParams.set('prefix', prefix);
        url.searchParams.set('delimiter', '/');
        if (options.listPageSize !== undefined) url.searchParams.set('max-keys', String(options.listPageSize));
        if (token !== undefined) url.searchParams.set('continuation-token', token);
        const response = await send(url, {}, attemptSignal);
        if (response.status !== 200) {
          await response.body?.cancel();
          const answered = `it answered ${response.status} to ListObjectsV2`;
          throw response.status >= 500 ? new TransientFailure(answered) : new DataSourceUnavailableError(description, `${answered} (check the bucket, the credentials and the region).`, null);
        }
        const bytes = await boundedBody(response, MAX_PAGE_BYTES);
        const page = bytes && parseListingPage(new TextDecoder().decode(bytes));
        if (!page) throw new DataSourceUnavailableError(description, 'its answer to ListObjectsV2 is no ListBucketResult.', null);
        return page;
      },
      { source: description, timeoutMs, signal },
    );

  const source: DataSource = {
    describe: () => description,

    async list(signal): Promise<SourceEntry[]> {
      const entries: SourceEntry[] = [];
      const maxKeys = options.maxCatalogKeys ?? DEFAULT_MAX_CATALOG_KEYS;
      const pageSize = options.listPageSize ?? DEFAULT_PAGE_SIZE;
      // Pages are bounded too (issue 29): a page of folders only (CommonPrefixes) or an empty page that says more follow holds no key to count.
      const maxPages = listingPageBound(maxKeys, pageSize);
      let keys = 0;
      let pages = 0;
      let token: string | undefined;
      do {
        if (++pages > maxPages) {
          throw new DataSourceUnavailableError(
            description,
            `its listing runs past ${maxPages} ListObjectsV2 pages under the prefix (the bound: ${maxKeys} keys in pages of ${pageSize}; folders and empty pages count as pages too); serve a narrower prefix.`,
            null,
          );
        }
        const page = await listPage(token, signal);
        keys += page.objects.length;
        if (keys > maxKeys) throw new DataSourceUnavailableError(description, `its listing holds more than ${maxKeys} keys under the prefix; serve a narrower prefix.`, null);
        for (const object of page.objects) {
          const name = object.key.slice(prefix.length);
          // Keys below the prefix's folder are not the catalog's; names it cannot serve it leaves out and reports (source-catalog.ts).
          if (!object.key.startsWith(prefix) || name.includes('/')) continue;
          entries.push({ name, size: object.size, version: s3Version(object.etag, object.modifiedMs), modifiedMs: wholeSeconds(object.modifiedMs) });
        }
        // A store that repeats its token would list for ever, one that stops giving it would cut the catalog short.
        if (page.truncated && (page.nextToken === undefined || page.nextToken === token)) {
          throw new DataSourceUnavailableError(description, 'its listing said more keys follow but gave no new continuation token.', null);
        }
        token = page.nextToken;
      } while (token !== undefined);
      return entries;
    },

    async stat(name, signal): Promise<SourceStat | undefined> {
      if (!isPlainName(name)) return undefined;
      return withOneRetry(
        async (attemptSignal) => {
          const response = await send(objectUrl(name), { method: 'HEAD' }, attemptSignal);
          await response.body?.cancel();
          return statOfHead(response, {
            source: description,
            name,
            advice: 'check the credentials and the region',
            versionOf,
          });
        },
        { source: description, timeoutMs, signal },
      );
    },

    async read(name, offset, length, signal, version) {
      if (!isPlainName(name)) throw new FileChangedError(description, name);
      const url = objectUrl(name);
      const etag = version?.slice(0, version.lastIndexOf('@'));
      const precondition: Record<string, string> = etag ? { 'if-match': etag } : {};
      return fetchRange({
        source: description,
        file: name,
        offset,
        length,
        version,
        signal,
        timeoutMs,
        send: (range, attemptSignal) => send(url, { headers: { ...precondition, range } }, attemptSignal),
        versionOf,
      });
    },
  };
  return source;
}

/** An object's version from an answer about it: its ETag and Last-Modified, as ListObjectsV2 has them. */
const versionOf: VersionOf = (headers, _size, modifiedMs) => s3Version(headers.get('etag') ?? '', modifiedMs);

/** `s3://bucket/prefix/` as its bucket and its key prefix (ending in `/` unless empty). */
export function parseS3Url(url: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!match) throw new Error(`The data source '${url}' is no s3://bucket/prefix/ location (a bucket name is 3 to 63 lower-case letters, digits, dots and hyphens).`);
  const path = match[2] ?? '';
  // Path-style URLs put the prefix in the path: a '.' or '..' segment would leave the bucket.
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) throw new Error(`The data source '${url}' has a '.' or '..' in its prefix.`);
  return { bucket: match[1], prefix: path === '' || path.endsWith('/') ? path : `${path}/` };
}
