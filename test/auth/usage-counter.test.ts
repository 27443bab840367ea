/**
 * The usage counter on explicit dates (docs/configuration.md, "Quotas and usage"): UTC days
 * and months roll over at their bounds, a refusal says which quota and until when, and a
 * request given back leaves the period it was counted in, not the next.
 */
import { describe, expect, it } from 'vitest';
import { countsAsUse, createUsageCounter, isReceipt, type Receipt } from '../../src/auth/usage-counter.ts';

const at = (iso: string) => Date.parse(iso);
const ID = '0123456789abcdef';

describe('the usage counter', () => {
  it('counts a UTC day up to its quota, refuses with the next midnight, and starts again then', () => {
    const counter = createUsageCounter();
    const quota = { perDay: 2 };
    const late = at('2026-03-10T23:59:59.999Z');
    expect(isReceipt(counter.take(ID, quota, late))).toBe(true);
    expect(isReceipt(counter.take(ID, quota, late))).toBe(true);
    expect(counter.take(ID, quota, late)).toEqual({ period: 'day', quota: 2, resetsAt: at('2026-03-11T00:00:00Z') });
    expect(counter.usage(ID, late)).toEqual({
      day: { count: 2, resetsAt: at('2026-03-11T00:00:00Z') },
      month: { count: 2, resetsAt: at('2026-04-01T00:00:00Z') },
    });

    const midnight = at('2026-03-11T00:00:00Z');
    expect(isReceipt(counter.take(ID, quota, midnight))).toBe(true);
    expect(counter.usage(ID, midnight)).toEqual({
      day: { count: 1, resetsAt: at('2026-03-12T00:00:00Z') },
      month: { count: 3, resetsAt: at('2026-04-01T00:00:00Z') },
    });
  });

  it('counts a UTC month across its days, refuses with the first of the next month, and rolls over a year', () => {
    const counter = createUsageCounter();
    const quota = { perDay: 10, perMonth: 3 };
    for (const day of ['2026-12-01T00:00:00Z', '2026-12-15T12:00:00Z', '2026-12-31T23:59:59Z']) expect(isReceipt(counter.take(ID, quota, at(day)))).toBe(true);
    expect(counter.take(ID, quota, at('2026-12-31T23:59:59Z'))).toEqual({ period: 'month', quota: 3, resetsAt: at('2027-01-01T00:00:00Z') });
    // Both used up: the month's reset, the later one, is when the key may go on.
    expect(counter.take(ID, { perDay: 1, perMonth: 3 }, at('2026-12-31T23:59:59Z'))).toMatchObject({ period: 'month' });
    expect(isReceipt(counter.take(ID, quota, at('2027-01-01T00:00:00Z')))).toBe(true);
    expect(counter.usage(ID, at('2027-01-01T00:00:01Z')).month).toEqual({ count: 1, resetsAt: at('2027-02-01T00:00:00Z') });
  });

  it('gives a request back to the periods it was counted in, and to none that began since', () => {
    const counter = createUsageCounter();
    const before = counter.take(ID, undefined, at('2026-02-28T23:00:00Z')) as Receipt;
    counter.take(ID, undefined, at('2026-02-28T23:00:00Z'));
    counter.giveBack(before);
    expect(counter.usage(ID, at('2026-02-28T23:30:00Z'))).toMatchObject({ day: { count: 1 }, month: { count: 1 } });

    const lastDay = counter.take(ID, undefined, at('2026-03-30T23:59:00Z')) as Receipt;
    counter.take(ID, undefined, at('2026-03-31T00:00:00Z'));
    counter.giveBack(lastDay); // its day is over; its month is not
    expect(counter.usage(ID, at('2026-03-31T00:00:01Z'))).toMatchObject({ day: { count: 1 }, month: { count: 1 } });
  });

  it('keeps each key apart, and counts a key without a quota all the same', () => {
    const counter = createUsageCounter();
    const now = at('2026-06-01T08:00:00Z');
    counter.take('a', undefined, now);
    counter.take('a', undefined, now);
    counter.take('b', { perMonth: 1 }, now);
    expect(counter.usage('a', now).day.count).toBe(2);
    expect(counter.usage('b', now).day.count).toBe(1);
    expect(counter.usage('c', now).month.count).toBe(0);
  });

  it('counts the answers a key was served, not the server\'s failures, 304s or answers its client left', () => {
    expect([200, 400, 404, 405].map(countsAsUse)).toEqual([true, true, true, true]);
    expect([304, 499, 500, 503].map(countsAsUse)).toEqual([false, false, false, false]);
  });
});
