/**
 * A data source that misbehaves on purpose, on a loopback port, scripted request by request:
 * an HTTP server listing its files as nginx does (`autoindex_format json`, at `/files/`) or an
 * S3 store (path-style ListObjectsV2, HEAD and range GET under `/<bucket>/<prefix>`), holding
 * files in memory that a test puts, replaces and removes at any moment, and answering each
 * request as the test's script says: as a good server would, or stalled after (part of) its
 * headers, trickling a byte a second, ignoring Range, with any status and reason phrase.
 *
 * It keeps what a test asserts about the source's side: every request (kind, file, range,
 * when it came and how it ended: answered, or closed by the client first), how many were in
 * flight at once by kind, and it tells a test when a request arrives, so that tests wait for
 * events. The real servers the other tests use (nginx, s3rver) cannot stall, trickle, list a
 * hundred thousand names in a blink or swap a file between two reads of one request.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Protocol = 'http' | 's3';

/** What a request asked for: the listing (a JSON index, or one ListObjectsV2 page), a file's HEAD, a range of it, or all of it. */
export type RequestKind = 'listing' | 'head' | 'range' | 'get';

export interface StoredFile {
  bytes: Uint8Array;
  /** Last-Modified, in ms (sent to the second, as HTTP dates are). */
  modifiedMs: number;
  /** The S3 ETag, quotes included. */
  etag: string;
}

export interface Ending {
  /** 'answered': we sent the whole answer; 'client': the client closed first; 'stopped': the test stopped the server. */
  by: 'answered' | 'client' | 'stopped';
  /** performance.now() in this process. */
  at: number;
}

export interface SeenRequest {
  kind: RequestKind;
  method: string;
  /** The file's name below the base URL or prefix (HEAD and GET of a file). */
  name?: string;
  /** The Range header, as sent. */
  range?: string;
  /** A ListObjectsV2 page's continuation token, as sent. */
  token?: string;
  headers: IncomingHttpHeaders;
  /** performance.now() in this process when the request arrived. */
  receivedAt: number;
  /** Settles when the exchange ends, however. */
  ended: Promise<Ending>;
  /** Set once it has ended. */
  ending?: Ending;
}

/**
 * How to answer one request.
 * - 'answer': as a good server would (206 for a range, 412 for a failed precondition, …);
 * - 'stall': the answer's status line and headers, then nothing, ever (a HEAD, which has no
 *   body to hold back, gets part of its status line and no more);
 * - 'trickle': the same, then the body one byte a second (a HEAD: its headers, a byte a second);
 * - 'whole': a range request answered 200 with the whole file, as a server that ignores Range;
 * - a status with an optional reason phrase, body and headers, sent as it is.
 */
export type Reply = 'answer' | 'stall' | 'trickle' | 'whole' | { status: number; reason?: string; body?: string; headers?: Record<string, string> };

/** A ListObjectsV2 page as a script makes it (S3 only): keys below the prefix, common prefixes, and whether more follow. */
export interface ScriptedPage {
  names?: string[];
  commonPrefixes?: string[];
  truncated: boolean;
  nextToken?: string;
}

export interface HostileSource {
  protocol: Protocol;
  /** What `dataDir` names: `http://127.0.0.1:PORT/files/`, or `s3://BUCKET/PREFIX`. */
  dataDir: string;
  /** The server's origin, `http://127.0.0.1:PORT`: the S3 endpoint. */
  endpoint: string;
  bucket: string;
  prefix: string;
  /**
   * How the source describes itself in messages, as the service's sources name it
   * (http-source.ts and s3-source.ts's describe()): what a 503 must name.
   */
  description: string;
  files: Map<string, StoredFile>;
  /** Puts (or replaces) a file; a new modification time and ETag unless given. */
  put(name: string, bytes: Uint8Array, stamp?: { modifiedMs?: number; etag?: string }): void;
  remove(name: string): void;
  /**
   * The script: called for each request as it arrives, before it is answered (so it may change
   * the files first); undefined or 'answer' answers as a good server would.
   */
  script(decide: ((request: SeenRequest) => Reply | undefined) | undefined): void;
  /** S3 only: ListObjectsV2 pages made by `page` (given the token asked for) in place of the files'. */
  scriptListing(page: ((token: string | undefined) => ScriptedPage) | undefined): void;
  /** From now on the bucket (or the HTTP base) is gone: 404 to every request, as S3's NoSuchBucket or a web server's. */
  vanish(): void;
  /** Every request so far, oldest first. */
  requests: SeenRequest[];
  /** Resolves with the next request to arrive that `matches` (ask before it is sent). */
  next(matches?: (request: SeenRequest) => boolean): Promise<SeenRequest>;
  /** Requests of `kind` (every kind when left out) that have arrived and not ended. */
  inFlight(kind?: RequestKind): number;
  /** The most requests of `kind` (every kind when left out) in flight at once since the last resetPeaks(). */
  peakInFlight(kind?: RequestKind): number;
  resetPeaks(): void;
  stop(): Promise<void>;
}

/** The files' default time: a fixed one, so listings and answers agree whatever the clock says. */
export const LISTED_AT = Date.parse('2024-05-01T12:00:00Z');
const TRICKLE_EVERY_MS = 1000;

export interface HostileSourceOptions {
  /** S3: the bucket and the key prefix (default 'shapes' and 'data/'), and the most keys a ListObjectsV2 page holds (default 1000, as S3's). */
  bucket?: string;
  prefix?: string;
  pageSize?: number;
  /**
   * How long each answer waits before it is sent, in ms (default 0): a store's latency. With
   * none, this server answers every request as it arrives and never has two in flight, so
   * how many a client sends at once only shows when answers take a moment, as a real
   * store's do.
   */
  latencyMs?: number;
}

export async function startHostileSource(protocol: Protocol, { bucket = 'shapes', prefix = 'data/', pageSize = 1000, latencyMs = 0 }: HostileSourceOptions = {}): Promise<HostileSource> {
  const files = new Map<string, StoredFile>();
  let sorted: string[] | undefined;
  let httpListing: Buffer | undefined;
  let decide: ((request: SeenRequest) => Reply | undefined) | undefined;
  let scriptedPage: ((token: string | undefined) => ScriptedPage) | undefined;
  let vanished = false;
  let stopping = false;
  const requests: SeenRequest[] = [];
  const waiting: { matches: (request: SeenRequest) => boolean; resolve: (request: SeenRequest) => void }[] = [];
  const inFlight = new Map<RequestKind | 'all', number>();
  const peaks = new Map<RequestKind | 'all', number>();
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const etags = new WeakMap<Uint8Array, string>();
  let stamps = 0;

  const changed = () => {
    sorted = undefined;
    httpListing = undefined;
  };
  const etagOf = (bytes: Uint8Array) => {
    let etag = etags.get(bytes);
    if (etag === undefined) {
      etag = `"${createHash('md5').update(bytes).digest('hex')}"`;
      etags.set(bytes, etag);
    }
    return etag;
  };
  const names = () => (sorted ??= [...files.keys()].sort());

  const count = (kind: RequestKind, by: number) => {
    for (const key of [kind, 'all'] as const) {
      const now = (inFlight.get(key) ?? 0) + by;
      inFlight.set(key, now);
      if (now > (peaks.get(key) ?? 0)) peaks.set(key, now);
    }
  };

  /** What the request asks for, from its path and query. */
  const classify = (request: IncomingMessage): Omit<SeenRequest, 'headers' | 'receivedAt' | 'ended' | 'method'> | undefined => {
    const url = new URL(request.url ?? '/', 'http://source');
    const method = request.method ?? 'GET';
    const fileKind = (): RequestKind => (method === 'HEAD' ? 'head' : request.headers.range ? 'range' : 'get');
    if (protocol === 'http') {
      if (!url.pathname.startsWith('/files/')) return undefined;
      const rest = url.pathname.slice('/files/'.length);
      if (rest === '') return { kind: 'listing' };
      return { kind: fileKind(), name: safeDecode(rest), range: request.headers.range };
    }
    const [, bucketPart = '', ...keyParts] = url.pathname.split('/');
    if (safeDecode(bucketPart) !== bucket) return undefined;
    if (keyParts.length === 0 || (keyParts.length === 1 && keyParts[0] === '')) {
      return { kind: 'listing', token: url.searchParams.get('continuation-token') ?? undefined };
    }
    const key = keyParts.map(safeDecode).join('/');
    return { kind: fileKind(), name: key.startsWith(prefix) ? key.slice(prefix.length) : `\0${key}`, range: request.headers.range };
  };

  const server = createServer((request, response) => {
    const asked = classify(request);
    if (asked === undefined) return void response.writeHead(404).end();
    let settle!: (ending: Ending) => void;
    const seen: SeenRequest = {
      ...asked,
      method: request.method ?? 'GET',
      headers: request.headers,
      receivedAt: performance.now(),
      ended: new Promise((resolve) => (settle = resolve)),
    };
    count(seen.kind, 1);
    response.once('close', () => {
      seen.ending = { by: response.writableFinished ? 'answered' : stopping ? 'stopped' : 'client', at: performance.now() };
      count(seen.kind, -1);
      settle(seen.ending);
    });
    requests.push(seen);
    for (let i = 0; i < waiting.length; i++) {
      if (!waiting[i].matches(seen)) continue;
      waiting[i].resolve(seen);
      waiting.splice(i--, 1);
    }
    const reply = decide?.(seen) ?? 'answer';
    if (latencyMs === 0) return answer(seen, request, response, reply);
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!response.destroyed) answer(seen, request, response, reply);
    }, latencyMs);
    timers.add(timer);
  });

  const answer = (seen: SeenRequest, request: IncomingMessage, response: ServerResponse, reply: Reply) => {
    if (typeof reply === 'object') {
      const headers = { 'content-length': String(Buffer.byteLength(reply.body ?? '')), ...reply.headers };
      return void (reply.reason === undefined ? response.writeHead(reply.status, headers) : response.writeHead(reply.status, reply.reason, headers)).end(reply.body);
    }
    if (vanished) return void gone(seen, response);
    const made = seen.kind === 'listing' ? listingAnswer(request) : fileAnswer(seen, request, reply === 'whole');
    if (reply === 'answer' || reply === 'whole' || made.status >= 300) {
      return void response.writeHead(made.status, made.headers).end(seen.method === 'HEAD' ? undefined : made.body);
    }
    if (seen.method === 'HEAD') return void holdHead(response, made, reply === 'trickle');
    response.writeHead(made.status, made.headers);
    response.flushHeaders();
    if (reply === 'trickle') trickle(response, made.body);
  };

  /** A HEAD held: part of its status line and no more, or its head a byte a second (it never ends: a header that goes on). */
  const holdHead = (response: ServerResponse, answer: Answer, trickling: boolean) => {
    const socket = response.socket!;
    const head = `HTTP/1.1 ${answer.status} OK\r\n${Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}X-Trickle: `;
    if (!trickling) return void socket.write(head.slice(0, 9));
    socket.write(head);
    const timer = setInterval(() => socket.write('x'), TRICKLE_EVERY_MS);
    timers.add(timer);
    socket.once('close', () => {
      clearInterval(timer);
      timers.delete(timer);
    });
  };

  const trickle = (response: ServerResponse, body: Uint8Array) => {
    let at = 0;
    const timer = setInterval(() => {
      if (at < body.length) response.write(body.subarray(at, ++at));
      if (at >= body.length) response.end();
    }, TRICKLE_EVERY_MS);
    timers.add(timer);
    response.once('close', () => {
      clearInterval(timer);
      timers.delete(timer);
    });
  };

  const gone = (seen: SeenRequest, response: ServerResponse) => {
    if (protocol === 'http') return void response.writeHead(404, { 'content-type': 'text/html' }).end(seen.method === 'HEAD' ? undefined : '<html>404 Not Found</html>');
    const body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message><BucketName>${bucket}</BucketName></Error>`;
    response.writeHead(404, { 'content-type': 'application/xml' }).end(seen.method === 'HEAD' ? undefined : body);
  };

  interface Answer {
    status: number;
    headers: Record<string, string>;
    body: Uint8Array;
  }

  const listingAnswer = (request: IncomingMessage): Answer => {
    if (protocol === 'http') {
      httpListing ??= Buffer.from(
        `[\n${names()
          .map((name) => {
            const file = files.get(name)!;
            return `{ "name":${JSON.stringify(name)}, "type":"file", "mtime":"${new Date(file.modifiedMs).toUTCString()}", "size":${file.bytes.length} }`;
          })
          .join(',\n')}\n]\n`,
      );
      return { status: 200, headers: { 'content-type': 'application/json', 'content-length': String(httpListing.length) }, body: httpListing };
    }
    const url = new URL(request.url ?? '/', 'http://source');
    const token = url.searchParams.get('continuation-token') ?? undefined;
    const maxKeys = Math.min(pageSize, Number(url.searchParams.get('max-keys') ?? pageSize) || pageSize);
    let page: ScriptedPage;
    if (scriptedPage) page = scriptedPage(token);
    else {
      const start = token === undefined ? 0 : Number(Buffer.from(token, 'base64url').toString());
      const all = names();
      const end = Math.min(all.length, start + maxKeys);
      page = { names: all.slice(start, end), truncated: end < all.length, nextToken: end < all.length ? Buffer.from(String(end)).toString('base64url') : undefined };
    }
    const contents = (page.names ?? [])
      .map((name) => {
        const file = files.get(name);
        const size = file?.bytes.length ?? 0;
        const modified = new Date(file?.modifiedMs ?? LISTED_AT).toISOString();
        return `<Contents><Key>${xmlText(prefix + name)}</Key><LastModified>${modified}</LastModified><ETag>${xmlText(file?.etag ?? '"0"')}</ETag><Size>${size}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
      })
      .join('');
    const prefixes = (page.commonPrefixes ?? []).map((common) => `<CommonPrefixes><Prefix>${xmlText(prefix + common)}</Prefix></CommonPrefixes>`).join('');
    const xml =
      `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucket}</Name><Prefix>${xmlText(prefix)}</Prefix>` +
      `<KeyCount>${(page.names ?? []).length + (page.commonPrefixes ?? []).length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><Delimiter>/</Delimiter><IsTruncated>${page.truncated}</IsTruncated>` +
      `${token === undefined ? '' : `<ContinuationToken>${xmlText(token)}</ContinuationToken>`}${contents}${prefixes}` +
      `${page.nextToken === undefined ? '' : `<NextContinuationToken>${xmlText(page.nextToken)}</NextContinuationToken>`}</ListBucketResult>`;
    const body = Buffer.from(xml);
    return { status: 200, headers: { 'content-type': 'application/xml', 'content-length': String(body.length) }, body };
  };

  const fileAnswer = (seen: SeenRequest, request: IncomingMessage, ignoreRange: boolean): Answer => {
    const file = seen.name === undefined ? undefined : files.get(seen.name);
    if (file === undefined) {
      const body = protocol === 's3' ? Buffer.from('<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>') : Buffer.from('<html>404 Not Found</html>');
      return { status: 404, headers: { 'content-length': String(body.length) }, body };
    }
    const size = file.bytes.length;
    const headers: Record<string, string> = { 'last-modified': new Date(file.modifiedMs).toUTCString(), 'accept-ranges': 'bytes' };
    if (protocol === 's3') headers.etag = file.etag;
    const empty = new Uint8Array(0);
    // The preconditions a real server honours: S3's If-Match, nginx's If-Unmodified-Since.
    const ifMatch = request.headers['if-match'];
    const since = Date.parse(request.headers['if-unmodified-since'] ?? '');
    if ((ifMatch !== undefined && ifMatch !== file.etag) || (Number.isFinite(since) && Math.floor(file.modifiedMs / 1000) * 1000 > since)) {
      return { status: 412, headers: { 'content-length': '0' }, body: empty };
    }
    const match = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '');
    if (seen.kind !== 'range' || match === null || ignoreRange) return { status: 200, headers: { ...headers, 'content-length': String(size) }, body: file.bytes };
    const first = Number(match[1]);
    if (first >= size) return { status: 416, headers: { 'content-range': `bytes */${size}`, 'content-length': '0' }, body: empty };
    const last = Math.min(match[2] === '' ? size - 1 : Number(match[2]), size - 1);
    return { status: 206, headers: { ...headers, 'content-range': `bytes ${first}-${last}/${size}`, 'content-length': String(last - first + 1) }, body: file.bytes.subarray(first, last + 1) };
  };

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // A loaded test machine may take long between two requests of one connection: no idle cut-off of ours.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    protocol,
    dataDir: protocol === 'http' ? `${endpoint}/files/` : `s3://${bucket}/${prefix}`,
    endpoint,
    bucket,
    prefix,
    description: protocol === 'http' ? `${endpoint}/files/` : `s3://${bucket}/${prefix} at ${endpoint}`,
    files,
    put(name, bytes, stamp = {}) {
      // Each put a second later than the one before: HTTP versions are sizes and times to the second.
      const modifiedMs = stamp.modifiedMs ?? LISTED_AT + 1000 * stamps++;
      files.set(name, { bytes, modifiedMs, etag: stamp.etag ?? etagOf(bytes) });
      changed();
    },
    remove(name) {
      files.delete(name);
      changed();
    },
    script(next) {
      decide = next;
    },
    scriptListing(page) {
      scriptedPage = page;
    },
    vanish() {
      vanished = true;
    },
    requests,
    next: (matches = () => true) => new Promise((resolve) => waiting.push({ matches, resolve })),
    inFlight: (kind) => inFlight.get(kind ?? 'all') ?? 0,
    peakInFlight: (kind) => peaks.get(kind ?? 'all') ?? 0,
    resetPeaks() {
      peaks.clear();
      for (const [key, now] of inFlight) peaks.set(key, now);
    },
    async stop() {
      stopping = true;
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A path segment decoded; as it came when it is no valid percent-encoding. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Text for an XML element: markup escaped, and a lone surrogate (no XML character) as a character reference, as a lax store would send it. */
function xmlText(text: string): string {
  return text.replace(/[&<>"']|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (char) =>
    ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char] ?? `&#x${char.charCodeAt(0).toString(16).toUpperCase()};`,
  );
}
