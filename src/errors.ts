/** Error details never echo more than this many characters of a value a client sent. */
const MAX_ECHO = 100;

/** A value a client sent, as error details may quote it: cut short when long. */
export function echo(value: string): string {
  return value.length > MAX_ECHO ? `${value.slice(0, MAX_ECHO - 1)}…` : value;
}

/**
 * An error made without capturing its stack: for refusals and endings that are no fault to
 * trace, made thousands of times a second under load, where the stack was their largest cost.
 */
export function withoutStack<T extends Error>(make: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * Errors that carry the HTTP status the client should see. Anything thrown that is not a
 * ServiceError is an unexpected fault (500) and its message is not shown to the client.
 */
export class ServiceError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 414 | 429 | 431 | 500 | 503,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: a parameter is missing, malformed or out of range. */
export class BadRequestError extends ServiceError {
  constructor(message: string) {
    super(400, message);
  }
}

/** 401: the access key is missing or unknown. */
export class UnauthorizedError extends ServiceError {
  constructor(message: string) {
    super(401, message);
  }
}

/**
 * 403: a valid key used against its own rules (a signature missing or wrong, a page its
 * referrers rule does not list). Not 401: the key is known and valid; what is wrong is how this request uses it.
 */
export class ForbiddenError extends ServiceError {
  constructor(message: string) {
    super(403, message);
  }
}

/** 429: the key's quota for the day or the month is used up; the client may go on after `retryAfterSeconds`. */
export class QuotaExceededError extends ServiceError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, retryAfterSeconds);
  }
}

/** 404: unknown shapefile, feature, child or path. */
export class NotFoundError extends ServiceError {
  constructor(message: string) {
    super(404, message);
  }
}

/** 500 with a message the client may see: a shapefile that is damaged on disk. */
export class DamagedShapefileError extends ServiceError {
  constructor(
    readonly file: string,
    fault: string,
  ) {
    super(500, `Shapefile file '${file}' is damaged: ${fault}`);
  }
}

/**
 * 503: a remote shapefile's files changed, or went, while a request read them (a shapefile
 * being replaced file by file, a bucket deleted): no answer mixes two versions (docs/configuration.md,
 * "Data sources"). The catalog the request was answered from is out of date: the
 * job pool tells it to list the source again (jobs/job-pool.ts).
 */
export class FilesChangedError extends ServiceError {
  constructor(message: string, retryAfterSeconds = 2) {
    super(503, message, retryAfterSeconds);
  }
}

/** 503: overloaded or rate-limited; the client may retry after the given delay. */
export class OverloadedError extends ServiceError {
  constructor(message: string, retryAfterSeconds = 1) {
    super(503, message, retryAfterSeconds);
  }
}
