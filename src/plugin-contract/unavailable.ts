/**
 * How a provider says its source is down or too slow: the map answers 503 naming it (with
 * Retry-After), or is drawn by the provider's configured fallback.
 *
 * Recognised by a brand, not by class: a plugin installed with its own copy of the SDK
 * throws an error of another class of the same name.
 */
const BRAND = Symbol.for('shapeshot.basemap-unavailable');

export class BasemapUnavailableError extends Error {
  readonly [BRAND] = true;

  constructor(
    readonly provider: string,
    reason: string,
    readonly retryAfterSeconds = 5,
  ) {
    super(`Basemap provider '${provider}' is unavailable: ${reason}`);
    this.name = 'BasemapUnavailableError';
  }
}

export function isBasemapUnavailable(error: unknown): error is BasemapUnavailableError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * `work`, or a BasemapUnavailableError once `signal` fires: work shared with other maps
 * (a tile fetch) goes on for them while this map stops waiting.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal, provider: string): Promise<T> {
  if (signal.aborted) return Promise.reject(new BasemapUnavailableError(provider, 'the map ran out of time.'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new BasemapUnavailableError(provider, 'the map ran out of time while its basemap was loading.'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
