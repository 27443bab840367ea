/**
 * Cache-Control and Vary for every answer that a key unlocked and that may be kept: images,
 * maps and /ogc documents follow one rule (docs/decisions.md, "Images for screens and caches").
 */
import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { queryValue } from '../http/query-value.ts';

/**
 * Sets `cacheControl` (the configured http.cacheControl, or `no-store`) on the answer to come,
 * and `Vary: X-API-Key` when the key came in that header: a shared cache must not hand the
 * answer to a request with another key, or none. A key in the query is part of the URL, which
 * caches tell apart already. Appended, so that a Vary set before (Origin) stays.
 */
export function setCacheControl(c: Context<AppEnv>, cacheControl: string): void {
  c.header('Cache-Control', cacheControl);
  // requireKey takes the key parameter before the header: admitted without one, the header unlocked it.
  if (queryValue(c.req.url, 'key') === undefined) c.header('Vary', 'X-API-Key', { append: true });
}
