/**
 * The key check, the first step of every route that serves data (docs/api.md, "Requests": a
 * missing or unknown key is 401 whatever else is wrong), with the start-up key's rules against
 * pages of other sites and the key's own rules for public pages (a signature, the sites it may
 * be used on), each a 403; its limits follow (key-limits.ts). Which shapefiles the key may
 * see is decided later, by the access step (shapefile-access.ts), once the route has read its
 * parameters.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { KeyGrant, KeyRing } from '../auth/keys.ts';
import { MISSING_KEY, UNKNOWN_KEY } from '../auth/key-messages.ts';
import { isLoopbackOrigin, startUpKeyRefusal } from '../auth/start-up-key.ts';
import { referrerRefusal } from '../auth/referrer-rules.ts';
import { signatureRefusal } from '../auth/url-signature.ts';
import { ForbiddenError, UnauthorizedError } from '../errors.ts';
import type { AppEnv } from './context.ts';
import { queryValue } from './query-value.ts';

/**
 * The key, from the `key` parameter or the X-API-Key header, is checked before anything
 * else: a missing or unknown key is 401. The start-up key serves no page of another site
 * (start-up-key.ts), and its answers are readable only by pages of this machine.
 */
export function requireKey(keys: KeyRing): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = queryValue(c.req.url, 'key') ?? c.req.header('x-api-key');
    const grant = keys.authenticate(key);
    if (!grant) {
      throw new UnauthorizedError(key === undefined || key === '' ? MISSING_KEY : UNKNOWN_KEY);
    }
    if (grant.startUp) {
      const refusal = startUpKeyRefusal(c.req.url, c.req.raw.headers, grant.startUp.listensOnLoopback);
      if (refusal !== undefined) {
        // cors() has already allowed `*`: the page the key was refused to must not read even why.
        c.res.headers.delete('Access-Control-Allow-Origin');
        throw new ForbiddenError(refusal);
      }
      readableOnlyByLocalPages(c);
    }
    // Before the key's limits (key-limits.ts): requests the key's rules refuse take none of its tokens.
    const forbidden = publicKeyRefusal(grant, c);
    if (forbidden !== undefined) throw new ForbiddenError(forbidden);
    c.set('grant', grant);
    await next();
  };
}

/**
 * Signed URLs are the /REST/v1 routes'. /ogc takes no `signature` (its clients follow
 * links, which carry neither key nor signature), so a key that needs one is refused there
 * and any other's is not checked there (docs/configuration.md, "Signed URLs").
 */
const SIGNED_ROUTES = /^\/rest\//i;

/** Why this key's rules for public pages refuse the request (the 403's sentence); undefined when they allow it. */
function publicKeyRefusal(grant: KeyGrant, c: Context<AppEnv>): string | undefined {
  const { signing, referrers } = grant;
  if (signing !== undefined) {
    if (SIGNED_ROUTES.test(c.req.path)) {
      const refusal = signatureRefusal(signing, pathAndQuery(c.req.url));
      if (refusal !== undefined) return refusal;
    } else if (signing.required) {
      return 'This key accepts only signed URLs, which only the /REST/v1 routes take (OGC API clients follow links, which carry no signature): use another key here.';
    }
  }
  return referrers && referrerRefusal(referrers, c.req.header('referer'), c.req.header('origin'));
}

/** `/path?query` of an absolute URL (`http://host:port/path?query`), as the signature signs it. */
function pathAndQuery(url: string): string {
  return url.slice(url.indexOf('/', url.indexOf('//') + 2));
}

/**
 * CORS for an answer to the start-up key: the page's own origin when it is on loopback, never
 * `*`. Without such an Origin there is none to allow: same-origin reads and `<img>` need no
 * header, and a `*` kept in the browser's cache would let a page of another site read the same
 * URL later without asking us. `Vary: Origin` keeps caches from handing one page's answer to another.
 */
function readableOnlyByLocalPages(c: Context<AppEnv>): void {
  const origin = c.req.header('origin');
  c.header('Access-Control-Allow-Origin', origin !== undefined && isLoopbackOrigin(origin) ? origin : undefined);
  c.header('Vary', 'Origin', { append: true });
}
