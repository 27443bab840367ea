import { createHash, timingSafeEqual } from 'node:crypto';
import { DEMO_KEY, type KeyConfig } from '../config/schema.ts';
import { isLoopbackHost } from './local-requests.ts';
import { createRateLimiter, type RateLimiter } from './rate-limit.ts';
import { compileReferrerRule, type ReferrerRule } from './referrer-rules.ts';
import { urlSigning, type UrlSigning } from './url-signature.ts';
import type { Quota } from './usage-counter.ts';

/** What a valid key may do. */
export interface KeyGrant {
  /** A label safe to log: the configured name, or the first hex digits of the key's hash. */
  label: string;
  /**
   * What the key's usage is counted under (usage-counter.ts): hex digits of its hash, so that
   * counts outlive a reload that renames the key or changes its settings. Shown nowhere.
   */
  id: string;
  /** Requests per UTC day and month (docs/configuration.md, "Quotas and usage"). */
  quota?: Quota;
  /** Lower-case shapefile names the key may see; undefined means every shapefile. */
  shapefiles?: ReadonlySet<string>;
  rateLimiter?: RateLimiter;
  /** Most requests this key may have in progress at once. */
  maxConcurrent?: number;
  /** The secret this key's URLs are signed with, and whether they must be (url-signature.ts). */
  signing?: UrlSigning;
  /** The pages that may use this key (referrer-rules.ts). */
  referrers?: ReferrerRule;
  /** The well-known demo key: it serves only requests on this machine to this machine (local-requests.ts). */
  demo?: true;
}

interface StoredKey {
  hash: Buffer;
  /** The hash and the grant's settings: an entry with the same identity is the same key. */
  identity: string;
  grant: KeyGrant;
}

export interface KeyRing {
  /** The grant of a key, or undefined for a missing or unknown key. */
  authenticate(key: string | undefined): KeyGrant | undefined;
  /**
   * Puts these keys in place of the ring's (SIGHUP) for the requests that come next; those
   * in progress keep the grant they had. A key whose entry is unchanged keeps its grant, so
   * its rate-limit bucket and its count of requests in progress carry over; its usage is
   * counted by its hash (KeyGrant.id), so that carries over whatever changed.
   */
  replace(keys: readonly KeyConfig[], options: KeyRingOptions): void;
}

export interface KeyRingOptions {
  allowDemoKey: boolean;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Keys are kept only as SHA-256 hashes. Every stored hash is compared, in constant time,
 * so neither the comparison nor the loop tells an attacker how close a guess came.
 */
export function createKeyRing(keys: readonly KeyConfig[], options: KeyRingOptions): KeyRing {
  let stored = storeKeys(keys, options, []);
  return {
    authenticate(key) {
      if (key === undefined || key.length === 0) return undefined;
      const hash = sha256(key);
      let match: KeyGrant | undefined;
      for (const candidate of stored) {
        if (timingSafeEqual(candidate.hash, hash) && match === undefined) match = candidate.grant;
      }
      return match;
    },
    replace(keys, options) {
      stored = storeKeys(keys, options, stored);
    },
  };
}

function storeKeys(keys: readonly KeyConfig[], options: KeyRingOptions, previous: readonly StoredKey[]): StoredKey[] {
  const kept = new Map(previous.map((entry) => [entry.identity, entry]));
  const stored = keys.map((key): StoredKey => {
    const hash = key.sha256 ? Buffer.from(key.sha256, 'hex') : sha256(key.key!);
    const { key: _plain, sha256: _hex, ...settings } = key;
    const identity = `${hash.toString('hex')} ${JSON.stringify(settings)}`;
    return (
      kept.get(identity) ?? {
        hash,
        identity,
        grant: {
          label: key.name ?? `key:${hash.toString('hex').slice(0, 8)}`,
          id: usageId(hash),
          ...(key.quota ? { quota: key.quota } : {}),
          ...(key.shapefiles ? { shapefiles: new Set(key.shapefiles.map((name) => name.toLowerCase())) } : {}),
          ...(key.rateLimit ? { rateLimiter: createRateLimiter(key.rateLimit.perSecond, key.rateLimit.burst) } : {}),
          ...(key.maxConcurrent ? { maxConcurrent: key.maxConcurrent } : {}),
          ...(key.signingSecret ? { signing: urlSigning(key.signingSecret, key.requireSignature) } : {}),
          ...(key.referrers ? { referrers: compileReferrerRule(key.referrers, key.allowNoReferrer) } : {}),
        },
      }
    );
  });
  if (options.allowDemoKey) {
    const hash = sha256(DEMO_KEY);
    stored.push(kept.get(DEMO_KEY) ?? { hash, identity: DEMO_KEY, grant: { label: 'demo', id: usageId(hash), demo: true } });
  }
  return stored;
}

/** 64 bits of the hash: two keys of one configuration never share counts by chance. */
const usageId = (hash: Buffer) => hash.toString('hex').slice(0, 16);

/**
 * The demo key is well known, so it must never open a server that others can reach: it
 * works only while no keys are configured and the server listens on loopback (and, per
 * request, only for a request on this machine to this machine: see local-requests.ts).
 */
export function demoKeyAllowed(config: { demoKey: boolean; keys: readonly unknown[]; host: string }): boolean {
  return config.demoKey && config.keys.length === 0 && isLoopbackHost(config.host);
}
