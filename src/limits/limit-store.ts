/**
 * Where a key's limits are counted (docs/configuration.md, "Keys", "Quotas and usage",
 * "Limits shared by instances"): its rate limit, its requests in progress and its requests
 * per UTC day and month. One interface, two stores: this instance's memory
 * (local-limits.ts), or Redis, shared by every instance that names it (redis-limits.ts). A
 * request asks for all of them in one call, so that the shared store answers in one round
 * trip, and each store checks them in one order: rate limit, requests in progress, quota.
 */
import type { RateLimit } from '../auth/rate-limit.ts';
import type { Quota, QuotaReached, Usage } from '../auth/usage-counter.ts';

/** What one request of a key asks of the store. */
export interface LimitRequest {
  /** Takes one of its tokens. */
  rateLimit?: RateLimit;
  /** Holds one of the key's places among its requests in progress, until released. */
  maxConcurrent?: number;
  /** Counts the request in the key's use of today and this month, refused at `quota`. */
  count: boolean;
  quota?: Quota;
}

/** What a request took. */
export interface Taken {
  /**
   * Frees its place among the key's requests in progress, and gives back its count unless
   * `counted` (its answer counts as use: usage-counter.ts, countsAsUse). Once.
   */
  release(counted: boolean): void;
}

/** Why a request was refused, with what its answer says. */
export type Refused =
  | { refused: 'rate_limit'; retryAfterSeconds: number }
  | { refused: 'key_concurrency'; inProgress: number }
  /** `now`: the store's clock, which Retry-After counts from. */
  | { refused: 'quota'; reached: QuotaReached; now: number }
  | StoreDown;

/** The shared store cannot be reached and limits.storeFailure is 'closed'. */
export interface StoreDown {
  refused: 'limit_store';
}

/** How a shared store is doing, for /ready and /metrics. */
export interface SharedStoreHealth {
  /** The store as it may be shown: its URL without user or password. */
  readonly described: string;
  /** Whether it answers; while it does not, each instance counts on its own ('open') or refuses keys' requests ('closed': limits.storeFailure). */
  up(): boolean;
  readonly failure: 'open' | 'closed';
  /** Calls that failed or were late, since start-up. */
  failures(): number;
}

export interface LimitStore {
  take(id: string, request: LimitRequest): Promise<Taken | Refused>;
  /** The key's counts, today's and this month's, by the store's clock. */
  usage(id: string): Promise<Usage | StoreDown>;
  /** Present for a store shared by instances. */
  readonly shared?: SharedStoreHealth;
  close(): Promise<void>;
}

export const isRefused = <Counted extends object>(outcome: Counted | Refused): outcome is Refused => 'refused' in outcome;
