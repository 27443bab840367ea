import type { MiddlewareHandler } from 'hono';
import type { KeyGrant } from '../auth/keys.ts';
import { OverloadedError } from '../errors.ts';
import type { AppEnv } from './context.ts';

/**
 * Admits a request to the drawing work, or refuses it with 503 before it reads anything:
 * at most `maxInFlight` requests at once (the workers' and the queue's worth), and no more
 * at once per key than the key's `maxConcurrent`. A refusal costs next to nothing, so
 * under overload the service sheds what it cannot serve, and what it admits waits behind
 * a bounded queue.
 */
export function admission(maxInFlight: number): MiddlewareHandler<AppEnv> {
  let inFlight = 0;
  const perKey = new WeakMap<KeyGrant, number>();
  return async (c, next) => {
    const grant = c.get('grant');
    if (inFlight >= maxInFlight) throw new OverloadedError('The service is busy; retry shortly.', 1);
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
