/**
 * GET /REST/v1/usage: a key's own counts and limits, in the envelope (docs/api.md, "Usage";
 * docs/configuration.md, "Quotas and usage"). Mounted after the key check and before the
 * quota: asking costs no quota, and a key past its quota can still see when it resets.
 */
import { Hono } from 'hono';
import type { KeyGrant } from '../auth/keys.ts';
import type { PeriodUsage, UsageCounter } from '../auth/usage-counter.ts';
import type { KeyUsage, PeriodUse } from '../envelope/model.ts';
import type { AppEnv } from '../http/context.ts';
import { sendEnvelope } from '../http/respond.ts';
import { isoSeconds } from '../http/usage-quota.ts';
import { validQuery } from '../http/validate.ts';
import { usageQuerySchema } from '../params/usage.ts';
import type { Services } from '../app-services.ts';

/** `clock` gives milliseconds since the epoch, the one the quota counts with. */
export function usageRoute({ config, usage }: Pick<Services, 'config' | 'usage'>, clock: () => number = Date.now) {
  return new Hono<AppEnv>().get('/rest/v1/usage', validQuery(usageQuerySchema), (c) => {
    // What it says changes with every request: no cache may keep it.
    c.header('Cache-Control', 'no-store');
    const envelope = {
      copyright: config.envelope.copyright,
      statusCode: 200,
      statusDescription: 'OK',
      errorDetails: '',
      traceId: c.get('traceId'),
      resource: keyUsage(c.get('grant'), usage, clock()),
    };
    return sendEnvelope(c, envelope, c.req.valid('query').format, config.envelope);
  });
}

function keyUsage(grant: KeyGrant, counter: UsageCounter, now: number): KeyUsage {
  const { day, month } = counter.usage(grant.id, now);
  const limiter = grant.rateLimiter;
  return {
    kind: 'usage',
    today: periodUse(day, grant.quota?.perDay),
    thisMonth: periodUse(month, grant.quota?.perMonth),
    rateLimit: limiter ? { perSecond: limiter.perSecond, burst: limiter.burst } : null,
    maxConcurrent: grant.maxConcurrent ?? null,
  };
}

const periodUse = ({ count, resetsAt }: PeriodUsage, quota: number | undefined): PeriodUse => ({ count, quota: quota ?? null, resetsAt: isoSeconds(resetsAt) });
