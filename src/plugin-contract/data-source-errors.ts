/**
 * How a data source says that it cannot answer, or that a file changed under a read. The
 * service answers the first with 503 naming the source (src/sources/source-errors.ts), and
 * the second by reading the file again once, at its new version, before it gives up.
 *
 * Recognised by brands, not by class, as BasemapUnavailableError is: a plugin installed with
 * its own copy of the SDK throws errors of other classes of the same names.
 */
const UNAVAILABLE = Symbol.for('shapeshot.data-source-unavailable');
const CHANGED = Symbol.for('shapeshot.data-source-file-changed');

export class DataSourceUnavailableError extends Error {
  readonly [UNAVAILABLE] = true;

  /**
   * `source` is the source's describe(); `reason` a sentence that names no credentials and
   * no signed URL ("no answer within 10000 ms", "it answered 500 Internal Server Error").
   * `retryAfterSeconds`: when a client may try again; null when trying again cannot help (the
   * source refuses, answers what it must not, lists too much): the answer then has no Retry-After.
   */
  constructor(
    readonly source: string,
    readonly reason: string,
    readonly retryAfterSeconds: number | null = 5,
  ) {
    super(`Data source ${source} is unavailable: ${reason}`);
    this.name = 'DataSourceUnavailableError';
  }
}

export class FileChangedError extends Error {
  readonly [CHANGED] = true;

  constructor(
    readonly source: string,
    readonly file: string,
  ) {
    super(`File '${file}' of data source ${source} changed or was removed while it was being read.`);
    this.name = 'FileChangedError';
  }
}

export function isDataSourceUnavailable(error: unknown): error is DataSourceUnavailableError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[UNAVAILABLE] === true;
}

export function isFileChanged(error: unknown): error is FileChangedError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[CHANGED] === true;
}
