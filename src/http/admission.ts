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

/** Why a request was refused before it read anything; /metrics counts refusals by it. */
export type RefusalReason = 'queue_full' | 'too_slow' | 'key_concurrency' | 'rate_limit';

/** 503 before any work, saying why. */
export class RefusedError extends OverloadedError {
  constructor(
    message: string,
    readonly reason: RefusalReason,
    retryAfterSeconds = 1,
  ) {
    super(message, retryAfterSeconds);
  }
}

/**
 * One refusal for every request the service is too busy for, per reason: it carries no
 * stack, so that refusing costs next to nothing when thousands a second are refused.
 */
const busy = (reason: RefusalReason) => Object.freeze(withoutStack(() => new RefusedError('The service is busy; retry shortly.', reason)));
const QUEUE_FULL = busy('queue_full');
const TOO_SLOW = busy('too_slow');

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
    if (inFlight >= maxInFlight) throw QUEUE_FULL;
    if (expectedWaitMs() > maxWaitMs) throw TOO_SLOW;
    const keyInFlight = perKey.get(grant) ?? 0;
    if (grant.maxConcurrent !== undefined && keyInFlight >= grant.maxConcurrent) {
      throw new RefusedError(
        `This access key has ${keyInFlight} requests in progress, the most it may have at once; retry when one has finished.`,
        'key_concurrency',
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
