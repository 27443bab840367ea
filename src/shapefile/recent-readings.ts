/**
 * Readings of the disk that requests share. A reading under way serves every request that
 * asks meanwhile, and a finished one serves for `maxAgeMs` more: under load most requests
 * ask about the few files in use, and each look costs the thread pool a stat and the event
 * loop ~15 µs to hand it over and take it back, as much as the rest of a 304.
 */
import { LRUCache } from 'lru-cache';

export interface RecentReadings<V> {
  /**
   * What `read` finds for `key`, from a reading under way or younger than `maxAgeMs` if there
   * is one (`maxAgeMs` 0: only one under way, for a caller that must see the disk as it is now).
   */
  get(key: string, read: () => Promise<V>, maxAgeMs?: number): Promise<V>;
  /**
   * Takes `value` as a reading of `key` made at `madeAt` (performance.now()'s clock; a
   * listing that carried it, say), unless a reading is under way or one settled after that.
   */
  seed(key: string, value: V, madeAt: number): void;
}

/** Keys are names from the catalog, not from requests; the bound only stops a folder whose files keep changing names from growing it. */
const MAX_KEYS = 10_000;

export function recentReadings<V>(keptForMs: number): RecentReadings<V> {
  const readings = new LRUCache<string, { value: Promise<V>; settledAt?: number }>({ max: MAX_KEYS });
  return {
    get(key, read, maxAgeMs = keptForMs) {
      const known = readings.get(key);
      if (known && (known.settledAt === undefined || performance.now() - known.settledAt < maxAgeMs)) return known.value;
      const reading = { value: read(), settledAt: undefined as number | undefined };
      readings.set(key, reading);
      reading.value.then(
        () => {
          reading.settledAt = performance.now();
          if (keptForMs === 0 && readings.peek(key) === reading) readings.delete(key);
        },
        // A failed reading is not kept: the next request looks again.
        () => readings.peek(key) === reading && readings.delete(key),
      );
      return reading.value;
    },
    seed(key, value, madeAt) {
      const known = readings.peek(key);
      if (keptForMs === 0 || (known !== undefined && (known.settledAt === undefined || known.settledAt > madeAt))) return;
      readings.set(key, { value: Promise.resolve(value), settledAt: madeAt });
    },
  };
}
