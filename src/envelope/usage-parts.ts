/**
 * The usage route's Resource (docs/api.md, "Usage") in the envelope's JSON and XML: the same
 * names in the same order in both, nulls as i:nil, as the other Resources are written.
 */
import type { KeyUsage, PeriodUse } from './model.ts';
import { emptyElement, endTag, NIL, startTag, textElement } from './xml-markup.ts';

/** The members after `__type`, as JSON object text without its braces. */
export function usageJsonMembers(usage: KeyUsage): string {
  const members = JSON.stringify({
    Today: periodJson(usage.today),
    ThisMonth: periodJson(usage.thisMonth),
    RateLimit: usage.rateLimit && { PerSecond: usage.rateLimit.perSecond, Burst: usage.rateLimit.burst },
    MaxConcurrent: usage.maxConcurrent,
  });
  return members.slice(1, -1);
}

const periodJson = (period: PeriodUse) => ({ Count: period.count, Quota: period.quota, ResetsAt: period.resetsAt });

/** The Resource's child elements. */
export function usageXml(usage: KeyUsage): string {
  const { rateLimit } = usage;
  return (
    periodXml('Today', usage.today) +
    periodXml('ThisMonth', usage.thisMonth) +
    (rateLimit
      ? startTag('RateLimit') + textElement('PerSecond', String(rateLimit.perSecond)) + textElement('Burst', String(rateLimit.burst)) + endTag('RateLimit')
      : emptyElement('RateLimit', NIL)) +
    optionalNumber('MaxConcurrent', usage.maxConcurrent)
  );
}

function periodXml(name: string, period: PeriodUse): string {
  return startTag(name) + textElement('Count', String(period.count)) + optionalNumber('Quota', period.quota) + textElement('ResetsAt', period.resetsAt) + endTag(name);
}

const optionalNumber = (name: string, value: number | null) => (value === null ? emptyElement(name, NIL) : textElement(name, String(value)));
