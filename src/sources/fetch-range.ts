/**
 * One byte range of a file from an HTTP server or an object store (both speak HTTP range
 * requests), with the checks that keep a read honest: the answer must be a 206 for exactly
 * the bytes asked (a 200 is the whole file, which is never downloaded: refused, its body not
 * read), no longer than asked, and of the version asked. The timeout and the one retry are
 * one-retry.ts's; the request itself (plain or signed) is the caller's.
 */
import { echo } from '../errors.ts';
import { xmlSafe } from '../xml-text.ts';
import { boundedBody } from '../plugin-contract/bounded-body.ts';
import { DataSourceUnavailableError, FileChangedError } from '../plugin-contract/data-source-errors.ts';
import { TransientFailure, withOneRetry } from './one-retry.ts';
import type { VersionOf } from './head-answer.ts';
import type { SourceAnswer } from './source-request.ts';

export interface RangeRequest {
  /** The source's describe(), for errors. */
  source: string;
  /** The file's name, for errors. */
  file: string;
  offset: number;
  length: number;
  /** The version the caller expects, when it expects one. */
  version?: string;
  signal: AbortSignal;
  timeoutMs: number;
  /** Sends the request for bytes `range` ("bytes=a-b"), stopping on `signal`; a signed request is signed for each attempt. */
  send(range: string, signal: AbortSignal): Promise<SourceAnswer>;
  /** The version an answer reports (one without a Last-Modified reports none). */
  versionOf: VersionOf;
}

/** The bytes of the range: fewer than asked only at the end of the file, none past it. */
export async function fetchRange(request: RangeRequest): Promise<Uint8Array> {
  const { offset, length } = request;
  if (length <= 0) return new Uint8Array(0);
  const range = `bytes=${offset}-${offset + length - 1}`;
  return withOneRetry(async (signal) => rangeBytes(await request.send(range, signal), request), request);
}

/** What an answer to a range request holds, checked. */
async function rangeBytes(response: SourceAnswer, request: RangeRequest): Promise<Uint8Array> {
  const { offset, length, source, file, version } = request;
  const { status } = response;
  if (status === 206) {
    const contentRange = parseContentRange(response.headers.get('content-range'));
    // Exactly what was asked, less only past the end of the file: a shorter range would be kept as the end of the file.
    const expectedLast = Math.min(offset + length, contentRange?.size ?? 0) - 1;
    if (contentRange === undefined || contentRange.first !== offset || contentRange.last !== expectedLast) {
      await response.body?.cancel();
      throw new DataSourceUnavailableError(source, `it answered a read of '${file}' with other bytes than asked (Content-Range '${response.headers.get('content-range')}').`, null);
    }
    if (version !== undefined && versionOfAnswer(response.headers, contentRange.size, request.versionOf) !== version) {
      await response.body?.cancel();
      throw new FileChangedError(source, file);
    }
    const bytes = await boundedBody(response, contentRange.last - contentRange.first + 1);
    if (bytes === undefined) throw new DataSourceUnavailableError(source, `it sent more bytes of '${file}' than its Content-Range said.`);
    if (bytes.length !== contentRange.last - contentRange.first + 1) {
      throw new DataSourceUnavailableError(source, `it sent fewer bytes of '${file}' than its Content-Range said (an answer cut short).`);
    }
    return bytes;
  }
  await response.body?.cancel();
  // The range starts at or past the end of the file.
  if (status === 416) return new Uint8Array(0);
  if (status === 404 || status === 410 || status === 412) throw new FileChangedError(source, file);
  if (status === 200) {
    throw new DataSourceUnavailableError(source, `it answered a range request for '${file}' with the whole file (200, not 206); it must support HTTP range requests.`, null);
  }
  // The reason phrase is the source's text: quoted to 100 characters at most (docs/decisions.md, "Errors").
  const answered = `it answered ${status}${response.statusText ? ` ${echo(xmlSafe(response.statusText))}` : ''} to a read of '${file}'`;
  if (status >= 500 || status === 429) throw new TransientFailure(answered);
  throw new DataSourceUnavailableError(source, `${answered}.`, null);
}

function versionOfAnswer(headers: SourceAnswer['headers'], size: number, versionOf: VersionOf): string | undefined {
  const modifiedMs = Date.parse(headers.get('last-modified') ?? '');
  return Number.isFinite(modifiedMs) ? versionOf(headers, size, modifiedMs) : undefined;
}

interface ContentRange {
  first: number;
  last: number;
  /** The file's total size. */
  size: number;
}

/** `bytes first-last/size` (RFC 9110 §14.4); undefined for anything else, an unknown size (`*`) included. */
export function parseContentRange(header: string | null): ContentRange | undefined {
  const match = header === null ? null : /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header.trim());
  if (!match) return undefined;
  const [first, last, size] = match.slice(1).map(Number);
  return first <= last && last < size ? { first, last, size } : undefined;
}
