/**
 * Readings of the disk (or a remote source's stats) that requests share. A reading under way
 * serves every request that asks meanwhile, and a finished one serves for `maxAgeMs` more:
 * under load most requests ask about the few files in use, and each look costs the thread
 * pool a stat and the event loop ~15 µs to hand it over and take it back, as much as the
 * rest of a 304.
 *
 * With `staleMs`, a reading past its age but not past `staleMs` more is still given at once,
 * while one new reading is made in the background for the requests after: a remote source's
 * stat costs a round trip, which a request under steady load then never waits for. A reading
 * older than that is waited for, so nothing is answered from a stat older than
 * `maxAgeMs + staleMs`.
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

interface Reading<V> {
  value: Promise<V>;
  settledAt?: number;
  /** A newer reading is being made in the background. */
  refreshing?: boolean;
}

export function recentReadings<V>(keptForMs: number, staleMs = 0): RecentReadings<V> {
  const readings = new LRUCache<string, Reading<V>>({ max: MAX_KEYS });

  const settled = (key: string, value: V, settledAt: number) => readings.set(key, { value: Promise.resolve(value), settledAt });

  return {
    get(key, read, maxAgeMs = keptForMs) {
      const known = readings.get(key);
      const age = known?.settledAt === undefined ? 0 : performance.now() - known.settledAt;
      // Under way, or young enough.
      if (known && (known.settledAt === undefined || age < maxAgeMs)) return known.value;
      if (known?.settledAt !== undefined && maxAgeMs > 0 && age < maxAgeMs + staleMs) {
        if (!known.refreshing) {
          known.refreshing = true;
          // A failed background reading leaves the last one, until it is too old to give.
          read().then(
            (value) => readings.peek(key) === known && settled(key, value, performance.now()),
            () => (known.refreshing = false),
          );
        }
        return known.value;
      }
      const reading: Reading<V> = { value: read() };
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
      settled(key, value, madeAt);
    },
  };
}
