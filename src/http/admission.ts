import type { MiddlewareHandler } from 'hono';
import type { KeyGrant } from '../auth/keys.ts';
import { OverloadedError } from '../errors.ts';
import type { AppEnv } from './context.ts';

export interface AdmissionOptions {
  /** Requests at work at once, at most: the workers' and the queue's worth. */
  maxInFlight: number;
  /** A request that would wait longer than this for a worker is refused. */
  maxWaitMs: number;
  /** How long a request admitted now would wait for a worker, by the drawing pool's reckoning. */
  expectedWaitMs(): number;
}

/**
 * One refusal for every request the service is too busy for: it carries no stack, so that
 * refusing costs next to nothing when thousands a second are refused.
 */
const BUSY = Object.freeze(withoutStack(() => new OverloadedError('The service is busy; retry shortly.', 1)));

/**
 * Admits a request to the drawing work, or refuses it with 503 before it reads anything:
 * at most `maxInFlight` at once, none that would wait longer than `maxWaitMs` for a worker,
 * and no more at once per key than the key's `maxConcurrent`. Under overload the service
 * sheds what it cannot serve in time, and what it admits waits behind a bounded queue.
 */
export function admission({ maxInFlight, maxWaitMs, expectedWaitMs }: AdmissionOptions): MiddlewareHandler<AppEnv> {
  let inFlight = 0;
  const perKey = new WeakMap<KeyGrant, number>();
  return async (c, next) => {
    const grant = c.get('grant');
    if (inFlight >= maxInFlight || expectedWaitMs() > maxWaitMs) throw BUSY;
    const keyInFlight = perKey.get(grant) ?? 0;
    if (grant.maxConcurrent !== undefined && keyInFlight >= grant.maxConcurrent) {
      throw new OverloadedError(
        `This access key has ${keyInFlight} requests in progress, the most it may have at once; retry when one has finished.`,
        1,
      );
    }
    inFlight++;
    perKey.set(grant, keyInFlight + 1);
    try {
      await next();
    } finally {
      inFlight--;
      perKey.set(grant, perKey.get(grant)! - 1);
    }
  };
}

function withoutStack<T>(make: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
