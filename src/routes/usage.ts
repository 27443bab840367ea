/**
 * GET /REST/v1/usage: a key's own counts and limits, in the envelope (docs/api.md, "Usage";
 * docs/configuration.md, "Quotas and usage"). Mounted after the key check and before the
 * quota: asking costs no quota, and a key past its quota can still see when it resets.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import type { KeyGrant } from '../auth/keys.ts';
import type { PeriodUsage, Usage } from '../auth/usage-counter.ts';
import type { KeyUsage, PeriodUse } from '../envelope/model.ts';
import type { AppEnv } from '../http/context.ts';
import { isoSeconds, refusedFor } from '../http/key-limits.ts';
import { sendEnvelope } from '../http/respond.ts';
import { validQuery } from '../http/validate.ts';
import { isRefused } from '../limits/limit-store.ts';
import { usageQuerySchema } from '../params/usage.ts';
import type { Services } from '../app-services.ts';

/** `rateLimited`: the key's rate limit, which applies here as to every route (key-limits.ts). */
export function usageRoute({ config, limits }: Pick<Services, 'config' | 'limits'>, rateLimited: MiddlewareHandler<AppEnv>) {
  return new Hono<AppEnv>().get('/rest/v1/usage', rateLimited, validQuery(usageQuerySchema), async (c) => {
    const grant = c.get('grant');
    const usage = await limits.usage(grant.id);
    if (isRefused(usage)) throw refusedFor(usage);
    // What it says changes with every request: no cache may keep it.
    c.header('Cache-Control', 'no-store');
    const envelope = {
      copyright: config.envelope.copyright,
      statusCode: 200,
      statusDescription: 'OK',
      errorDetails: '',
      traceId: c.get('traceId'),
      resource: keyUsage(grant, usage),
    };
    return sendEnvelope(c, envelope, c.req.valid('query').format, config.envelope);
  });
}

function keyUsage(grant: KeyGrant, { day, month }: Usage): KeyUsage {
  const { rateLimit } = grant;
  return {
    kind: 'usage',
    today: periodUse(day, grant.quota?.perDay),
    thisMonth: periodUse(month, grant.quota?.perMonth),
    rateLimit: rateLimit ? { perSecond: rateLimit.perSecond, burst: rateLimit.burst } : null,
    maxConcurrent: grant.maxConcurrent ?? null,
  };
}

const periodUse = ({ count, resetsAt }: PeriodUsage, quota: number | undefined): PeriodUse => ({ count, quota: quota ?? null, resetsAt: isoSeconds(resetsAt) });
