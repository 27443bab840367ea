/**
 * How many requests each key made today and this month (UTC), and its quota over them
 * (docs/configuration.md, "Quotas and usage"). Counted in this instance's memory, as
 * limits/local-limits.ts keeps them; with limits.store the same rule runs in Redis
 * (limits/redis-scripts.ts: INCR on the period's counter with an expiry, DECR to give back),
 * which names its periods as this does (days and months since 1970, UTC).
 *
 * A request is counted when the key is accepted (`take`), so that concurrent requests can
 * never pass the quota together, and given back (`giveBack`) when its answer turns out not to
 * count: counting after the answer would let every request in flight at the limit through.
 */

/** A key's quota: requests per UTC day and per UTC month; either may be left out. */
export interface Quota {
  perDay?: number;
  perMonth?: number;
}

/** What one request took: the key and the periods it was counted in, to give back. */
export interface Receipt {
  readonly id: string;
  /** Days since 1970-01-01 (UTC). */
  readonly day: number;
  /** Months since January 1970 (UTC). */
  readonly month: number;
}

/** A period's count and when the next one begins (milliseconds since the epoch). */
export interface PeriodUsage {
  count: number;
  resetsAt: number;
}

export interface Usage {
  day: PeriodUsage;
  month: PeriodUsage;
}

/** A request the quota refuses: which period is used up, its quota, and when the key may go on. */
export interface QuotaReached {
  period: 'day' | 'month';
  quota: number;
  resetsAt: number;
}

export interface UsageCounter {
  /**
   * Counts one request of key `id` at `now` (ms since the epoch), unless the day's or the
   * month's count is at its quota: then nothing is counted and the refusal says until when.
   */
  take(id: string, quota: Quota | undefined, now: number): Receipt | QuotaReached;
  /** Uncounts a request whose answer does not count; nothing when its period is over. */
  giveBack(receipt: Receipt): void;
  /** The key's counts at `now`. */
  usage(id: string, now: number): Usage;
}

const DAY_MS = 86_400_000;

/** One key's counts, with the bounds of the periods they are of, so that most calls compare two numbers. */
interface Tally {
  day: number;
  dayStarts: number;
  dayEnds: number;
  dayCount: number;
  month: number;
  monthStarts: number;
  monthEnds: number;
  monthCount: number;
}

/**
 * The counts of the keys in this instance's memory, by the key's id (keys.ts: derived from
 * its hash, so that a key renamed or given a new quota on reload keeps its counts). One
 * entry per key that made a request, which the configuration bounds.
 */
export function createUsageCounter(): UsageCounter {
  const tallies = new Map<string, Tally>();
  const current = (id: string, now: number): Tally => {
    let tally = tallies.get(id);
    if (tally === undefined) {
      tally = periodsAt(now);
      tallies.set(id, tally);
    } else if (now >= tally.dayEnds || now < tally.dayStarts) {
      moveTo(tally, now);
    }
    return tally;
  };
  return {
    take(id, quota, now) {
      const tally = current(id, now);
      if (quota?.perMonth !== undefined && tally.monthCount >= quota.perMonth) return { period: 'month', quota: quota.perMonth, resetsAt: tally.monthEnds };
      if (quota?.perDay !== undefined && tally.dayCount >= quota.perDay) return { period: 'day', quota: quota.perDay, resetsAt: tally.dayEnds };
      tally.dayCount++;
      tally.monthCount++;
      return { id, day: tally.day, month: tally.month };
    },
    giveBack(receipt) {
      const tally = tallies.get(receipt.id);
      if (tally === undefined) return;
      if (tally.day === receipt.day) tally.dayCount--;
      if (tally.month === receipt.month) tally.monthCount--;
    },
    usage(id, now) {
      const tally = current(id, now);
      return { day: { count: tally.dayCount, resetsAt: tally.dayEnds }, month: { count: tally.monthCount, resetsAt: tally.monthEnds } };
    },
  };
}

/** Whether `taken` is a count (not a refusal). */
export const isReceipt = (taken: Receipt | QuotaReached): taken is Receipt => 'id' in taken;

/** When day `day` (days since 1970-01-01, UTC) ends, in milliseconds since the epoch. */
export const dayEnds = (day: number) => (day + 1) * DAY_MS;

/** When month `month` (months since January 1970, UTC) ends, in milliseconds since the epoch. */
export const monthEnds = (month: number) => Date.UTC(1970, month + 1, 1);

/** Fresh counts for the day and month of `now`. */
function periodsAt(now: number): Tally {
  const tally = { day: 0, dayStarts: 0, dayEnds: 0, dayCount: 0, month: -1, monthStarts: 0, monthEnds: 0, monthCount: 0 };
  moveTo(tally, now);
  return tally;
}

/** Moves a tally to the day of `now`, and to its month when that changed too, from zero. */
function moveTo(tally: Tally, now: number): void {
  tally.day = Math.floor(now / DAY_MS);
  tally.dayStarts = tally.day * DAY_MS;
  tally.dayEnds = dayEnds(tally.day);
  tally.dayCount = 0;
  if (now >= tally.monthStarts && now < tally.monthEnds) return;
  const date = new Date(now);
  tally.month = (date.getUTCFullYear() - 1970) * 12 + date.getUTCMonth();
  tally.monthStarts = monthEnds(tally.month - 1);
  tally.monthEnds = monthEnds(tally.month);
  tally.monthCount = 0;
}

/** Which answers count against a key's usage (docs/configuration.md, "Quotas and usage"): those it was served, not the server's failures, a 304, or an answer its client left before. */
export function countsAsUse(status: number): boolean {
  return status < 500 && status !== 304 && status !== 499;
}
