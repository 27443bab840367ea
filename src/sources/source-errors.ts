/**
 * A data source's failures as the HTTP layer answers them (src/errors.ts's ServiceError): a
 * source that cannot answer, or a file that changed again after it was read again, is a 503
 * naming the source, with Retry-After; a request that would read more than its budget is a
 * 400 naming the limit. Sources (built-in or plugins) throw the contract's branded errors;
 * they become ServiceErrors here, at the one place the core calls them.
 *
 * Messages name a source only by its describe(), and never quote what a plugin's own error
 * says: that text could hold a signed URL or a token.
 */
import { BadRequestError, ServiceError } from '../errors.ts';
import { isDataSourceUnavailable, isFileChanged } from '../plugin-contract/data-source-errors.ts';

/** How long a client is asked to wait when a source fails without saying how long. */
const DEFAULT_RETRY_AFTER_SECONDS = 5;

/** 503: the source cannot answer, or a file keeps changing under the request's reads; no Retry-After when `retryAfterSeconds` is null (retrying cannot help). */
export class SourceFailedError extends ServiceError {
  constructor(message: string, retryAfterSeconds: number | null = DEFAULT_RETRY_AFTER_SECONDS) {
    super(503, message, retryAfterSeconds ?? undefined);
  }
}

/** 400: the request would read more from the source than `limits.maxSourceBytes`. */
export class SourceBudgetError extends BadRequestError {
  constructor(source: string, maxBytes: number) {
    super(
      `This request would read more than ${maxBytes} bytes from data source ${source} (limits.maxSourceBytes); ` +
        'ask for fewer features (fewer ids, a narrower where=) or raise the limit.',
    );
  }
}

/**
 * What the client should see of an error a source threw while `source` (its describe()) was
 * read under `signal`: the request's own end (the signal fired) and service errors as they
 * are; the contract's errors as 503s; anything else (a plugin's fault) as a 503 naming the
 * source without quoting it.
 */
export function asServiceError(error: unknown, source: string, signal: AbortSignal): unknown {
  if (signal.aborted || error instanceof ServiceError) return error;
  if (isDataSourceUnavailable(error)) return new SourceFailedError(error.message, error.retryAfterSeconds);
  if (isFileChanged(error)) return new SourceFailedError(`${error.message} It changed again when read again; try again shortly.`);
  return new SourceFailedError(`Data source ${source} is unavailable: it failed while it was read.`);
}
