/**
 * The keys in force and what each grants (docs/configuration.md, "Keys"): held only as SHA-256
 * hashes, every one compared in constant time, and replaced whole on SIGHUP, each key's counts
 * carrying over by its hash. While no key is configured, the start-up key is the one in force
 * (docs/configuration.md, "The start-up key").
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { KeyConfig } from '../config/schema.ts';
import type { RateLimit } from './rate-limit.ts';
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
  /** Counted by the limit store (limits/), by the key's id. */
  rateLimit?: RateLimit;
  /** Most requests this key may have in progress at once. */
  maxConcurrent?: number;
  /** The secret this key's URLs are signed with, and whether they must be (url-signature.ts). */
  signing?: UrlSigning;
  /** The pages that may use this key (referrer-rules.ts). */
  referrers?: ReferrerRule;
  /** The start-up key's: its rules for requests (start-up-key.ts) depend on where the server listens. */
  startUp?: { listensOnLoopback: boolean };
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
   * in progress keep the grant they had. Its rate-limit bucket, its requests in progress and
   * its usage are counted by its hash (KeyGrant.id: limits/), so they carry over whatever
   * changed (a bucket starts full when the rate limit changed).
   */
  replace(keys: readonly KeyConfig[]): void;
  /** The ids (KeyGrant.id) of the keys in force: what a reload revoked is those it took away (limits/revocations.ts). */
  ids(): string[];
  /** The start-up key while it is in force (no keys configured), for the start-up URLs; undefined otherwise. */
  startUpKey(): string | undefined;
}

export interface KeyRingOptions {
  /**
   * The key made when the server started with no keys configured (start-up-key.ts). It is
   * in force whenever the keys in force are none: a reload that configures keys puts it
   * out, one that removes them all brings it back (docs/configuration.md, "The start-up key").
   */
  startUpKey?: { key: string; listensOnLoopback: boolean };
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Keys are kept only as SHA-256 hashes. Every stored hash is compared, in constant time,
 * so neither the comparison nor the loop tells an attacker how close a guess came.
 */
export function createKeyRing(keys: readonly KeyConfig[], options: KeyRingOptions = {}): KeyRing {
  const startUp = options.startUpKey && startUpEntry(options.startUpKey.key, options.startUpKey.listensOnLoopback);
  let stored = storeKeys(keys, startUp, []);
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
    replace(keys) {
      stored = storeKeys(keys, startUp, stored);
    },
    ids: () => stored.map((entry) => entry.grant.id),
    startUpKey() {
      return startUp && stored.includes(startUp) ? options.startUpKey?.key : undefined;
    },
  };
}

/** The start-up key's entry, made once: its grant (and its usage count) is the same across reloads. */
function startUpEntry(key: string, listensOnLoopback: boolean): StoredKey {
  const hash = sha256(key);
  return { hash, identity: 'start-up', grant: { label: 'start-up', id: usageId(hash), startUp: { listensOnLoopback } } };
}

function storeKeys(keys: readonly KeyConfig[], startUp: StoredKey | undefined, previous: readonly StoredKey[]): StoredKey[] {
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
          ...(key.rateLimit ? { rateLimit: key.rateLimit } : {}),
          ...(key.maxConcurrent ? { maxConcurrent: key.maxConcurrent } : {}),
          ...(key.signingSecret ? { signing: urlSigning(key.signingSecret, key.requireSignature) } : {}),
          ...(key.referrers ? { referrers: compileReferrerRule(key.referrers, key.allowNoReferrer) } : {}),
        },
      }
    );
  });
  if (startUp && stored.length === 0) stored.push(startUp);
  return stored;
}

/** 64 bits of the hash: two keys of one configuration never share counts by chance. */
const usageId = (hash: Buffer) => hash.toString('hex').slice(0, 16);
