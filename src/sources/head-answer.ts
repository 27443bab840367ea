/**
 * A file's stat from the answer to a HEAD, read the same way for every source: gone (404,
 * 410), a failure to try once more (5xx), a refusal (other errors), or its size and the
 * version `versionOf` makes of its headers. A missing Content-Length is no size of 0 (a
 * compressing server may leave it out): such an answer is refused rather than read as an
 * empty file.
 */
import { DataSourceUnavailableError } from '../plugin-contract/data-source-errors.ts';
import type { SourceStat } from '../plugin-contract/data-source-plugin.ts';
import { TransientFailure } from './one-retry.ts';
import type { SourceAnswer } from './source-request.ts';

/**
 * The version a source makes of an answer about a file (a HEAD's or a range read's): its
 * headers, the file's whole size and its Last-Modified, parsed. One per source, so that a
 * stat and a read of the same file say the same.
 */
export type VersionOf = (headers: { get(name: string): string | null }, size: number, modifiedMs: number) => string;

export interface HeadAnswer {
  /** The source, as messages name it. */
  source: string;
  name: string;
  /** Said after a refusal's status: what the operator may check. */
  advice?: string;
  versionOf: VersionOf;
}

export function statOfHead(response: Pick<SourceAnswer, 'status' | 'headers'>, { source, name, advice, versionOf }: HeadAnswer): SourceStat | undefined {
  const { status } = response;
  if (status === 404 || status === 410) return undefined;
  if (status >= 500) throw new TransientFailure(`it answered ${status} to a HEAD of '${name}'`);
  if (status < 200 || status > 299) throw new DataSourceUnavailableError(source, `it answered ${status} to a HEAD of '${name}'${advice ? ` (${advice})` : ''}.`, null);
  const size = contentLength(response.headers);
  const modifiedMs = Date.parse(response.headers.get('last-modified') ?? '');
  if (!Number.isSafeInteger(size) || !Number.isFinite(modifiedMs)) {
    throw new DataSourceUnavailableError(source, `its answer for '${name}' lacks a Content-Length or a Last-Modified, so changes to the file could not be told.`, null);
  }
  return { size, version: versionOf(response.headers, size, modifiedMs), modifiedMs };
}

function contentLength(headers: SourceAnswer['headers']): number {
  const text = headers.get('content-length');
  if (text === null || !/^\d{1,16}$/.test(text.trim()) || headers.get('content-encoding')) return Number.NaN;
  return Number(text);
}
