/**
 * The limits store that limits.store names, shared by instances (docs/configuration.md,
 * "Limits shared by instances"): one connection, for the keys' limits and for the keys
 * revoked by a reload. Imported only when limits.store is set, so that a server without it
 * never loads a Redis client.
 */
import type { Logger } from 'pino';
import type { Config } from '../config/schema.ts';
import type { LimitStore } from './limit-store.ts';
import { createLocalLimits } from './local-limits.ts';
import { connectRedis } from './redis-link.ts';
import { createRedisLimits } from './redis-limits.ts';
import { followRevocations, type Revocations } from './revocations.ts';

export async function openSharedLimits(store: string, limits: Config['limits'], logger: Logger): Promise<{ limits: LimitStore; revocations: Revocations }> {
  const link = await connectRedis(store, { deadlineMs: limits.storeDeadlineMs, failure: limits.storeFailure }, logger);
  const shared = createRedisLimits(link, createLocalLimits(), {
    holdMs: limits.requestTimeoutMs + limits.writeStallMs,
    failure: limits.storeFailure,
  });
  const revocations = await followRevocations(link);
  return {
    limits: {
      ...shared,
      async close() {
        await revocations.close();
        await shared.close();
      },
    },
    revocations,
  };
}
