/**
 * Keys revoked on one instance are refused by every instance within a second, when they share
 * a limits store (docs/configuration.md, "Limits shared by instances"). The instance that
 * reloads (SIGHUP) adds the ids (KeyGrant.id) of the keys it no longer has to a set in Redis,
 * takes those it has off it, and says so on a channel; every instance holds a copy of the set,
 * read again on each message and at least every REREAD_MS in case a message was lost, and
 * refuses its keys as unknown (401). A restart changes nothing in the set: an instance started
 * with an old configuration cannot bring a revoked key back; a reload whose configuration
 * holds the key does.
 */
import type { Redis } from 'ioredis';
import type { KeyRing } from '../auth/keys.ts';
import type { RedisLink } from './redis-link.ts';
import { REVOKED } from './redis-scripts.ts';

export interface Revocations {
  has(id: string): boolean;
  /** A reload put the keys `after` in force in place of `before` (their ids). */
  reloaded(before: readonly string[], after: readonly string[]): void;
  /** Runs `listener` each time this instance's copy of the set changes. */
  onChange(listener: () => void): void;
  close(): Promise<void>;
}

/** The longest a lost message leaves this instance's copy behind. */
const REREAD_MS = 1000;

/** Follows the revoked keys of `link`'s Redis; resolves once the set was read (or the store is down). */
export async function followRevocations(link: RedisLink): Promise<Revocations> {
  let revoked = new Set<string>();
  // What this instance's reloads changed and Redis does not hold yet (it was down): written once it answers.
  const toAdd = new Set<string>();
  const toRemove = new Set<string>();
  // Bumped by each write: a read begun before one may show the set without it, and is dropped.
  let writes = 0;
  const listeners: (() => void)[] = [];

  const adopt = (next: Set<string>) => {
    for (const id of toAdd) next.add(id);
    for (const id of toRemove) next.delete(id);
    const changed = next.size !== revoked.size || [...next].some((id) => !revoked.has(id));
    revoked = next;
    if (changed) for (const listener of listeners) listener();
  };
  const read = async () => {
    const begun = writes;
    const members = await link.attempt((redis) => redis.smembers(REVOKED));
    if (members !== undefined && begun === writes) adopt(new Set(members));
  };
  const write = async () => {
    if (toAdd.size === 0 && toRemove.size === 0) return;
    const added = [...toAdd];
    const removed = [...toRemove];
    writes++;
    const done = await link.attempt((redis) => {
      const change = redis.multi();
      if (added.length > 0) change.sadd(REVOKED, ...added);
      if (removed.length > 0) change.srem(REVOKED, ...removed);
      return change.publish(REVOKED, 'changed').exec();
    });
    if (done === undefined) return;
    for (const id of added) toAdd.delete(id);
    for (const id of removed) toRemove.delete(id);
  };

  // A connection of its own: one that subscribes can send nothing else. Its commands wait for it to connect: none is a request's.
  const subscriber: Redis = link.client.duplicate({ enableOfflineQueue: true });
  subscriber.on('error', () => undefined);
  subscriber.on('message', () => void read());
  void subscriber.subscribe(REVOKED).catch(() => undefined);
  const rereading = setInterval(() => void read(), REREAD_MS);
  rereading.unref?.();
  link.onUp(() => void write().then(read));
  await read();

  return {
    has: (id) => revoked.has(id),
    reloaded(before, after) {
      const inForce = new Set(after);
      for (const id of before) {
        if (inForce.has(id)) continue;
        toAdd.add(id);
        toRemove.delete(id);
      }
      for (const id of after) {
        toRemove.add(id);
        toAdd.delete(id);
      }
      adopt(new Set(revoked));
      void write();
    },
    onChange: (listener) => void listeners.push(listener),
    async close() {
      clearInterval(rereading);
      subscriber.disconnect();
    },
  };
}

/** `ring`, refusing the keys revoked elsewhere as it refuses unknown ones. */
export function withoutRevoked(ring: KeyRing, revocations: Pick<Revocations, 'has'>): KeyRing {
  return {
    ...ring,
    authenticate(key) {
      const grant = ring.authenticate(key);
      return grant && !revocations.has(grant.id) ? grant : undefined;
    },
  };
}
