/**
 * The referrers rule alone (auth/referrer-rules.ts), case by case as docs/configuration.md,
 * "Allowed sites", states it. Chromium sending real headers: test/browser/referrers.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { compileReferrerRule, referrerRefusal, wildcard } from '../../src/auth/referrer-rules.ts';
import { configSchema } from '../../src/config/schema.ts';

describe('wildcard', () => {
  it('takes * for any run of characters, none included, and the rest literally', () => {
    const cases: [string, string, boolean][] = [
      ['abc', 'abc', true],
      ['abc', 'abcd', false],
      ['*', '', true],
      ['a*', 'a', true],
      ['*.example.org', 'maps.example.org', true],
      ['*.example.org', 'example.org', false],
      ['*.example.org', 'maps.example.org.evil', false],
      ['a*b*c', 'abc', true],
      ['a*b*c', 'aXbYbZc', true],
      ['a*b*c', 'acb', false],
      ['ab*ba', 'aba', false],
      ['*a*a*a*a*a*b', 'a'.repeat(10_000), false],
      ['.*', 'x.y', false],
      ['(*)', '(x)', true],
    ];
    for (const [pattern, text, expected] of cases) expect(wildcard(pattern)(text), `${pattern} ~ ${text}`).toBe(expected);
  });
});

describe('referrerRefusal', () => {
  const rule = compileReferrerRule(['https://*.example.org/*', 'http://localhost:*/maps/*', 'HTTPS://Example.ORG']);
  const allows = (referer?: string, origin?: string) => referrerRefusal(rule, referer, origin) === undefined;

  it('matches scheme and host in any case, the path as sent, a Referer without its query', () => {
    expect(allows('https://maps.example.org/')).toBe(true);
    expect(allows('https://a.b.example.org/page?q=1')).toBe(true);
    expect(allows('HTTPS://MAPS.EXAMPLE.ORG/x')).toBe(true);
    expect(allows('https://example.org/any/path')).toBe(true);
    expect(allows('http://maps.example.org/')).toBe(false);
    expect(allows('https://maps.example.org:8443/')).toBe(false);
    expect(allows('https://evil.example/x.example.org/')).toBe(false);
    expect(allows('https://evil.example/?https://maps.example.org/')).toBe(false);
    expect(allows('https://maps.example.org@evil.example/')).toBe(false);
  });

  it('matches a path pattern only where the path came: an origin-only Referer has the path /', () => {
    expect(allows('http://localhost:8080/maps/city.html')).toBe(true);
    expect(allows('http://localhost:8080/Maps/city.html')).toBe(false);
    expect(allows('http://localhost:8080/')).toBe(false);
    expect(allows('http://localhost/maps/city.html')).toBe(false);
  });

  it('matches an Origin on its scheme and host; each header that came must be allowed', () => {
    expect(allows(undefined, 'https://maps.example.org')).toBe(true);
    expect(allows(undefined, 'http://localhost:8080')).toBe(true);
    expect(allows(undefined, 'https://evil.example')).toBe(false);
    expect(allows('https://maps.example.org/', 'https://evil.example')).toBe(false);
    expect(allows('https://evil.example/', 'https://maps.example.org')).toBe(false);
  });

  it('refuses what names no page: an opaque origin, a header that is no URL', () => {
    expect(referrerRefusal(rule, undefined, 'null')).toBe("This key's referrers rule does not allow null (the request's Origin header).");
    expect(allows('not a url')).toBe(false);
  });

  it('names the rule and the page, without the query, in the 403', () => {
    expect(referrerRefusal(rule, 'https://evil.example/page?secret=1', undefined)).toBe(
      "This key's referrers rule does not allow https://evil.example/page (the request's Referer header).",
    );
    expect(referrerRefusal(rule, undefined, 'https://evil.example')).toBe(
      "This key's referrers rule does not allow https://evil.example (the request's Origin header).",
    );
  });

  it('refuses a request with neither header unless allowNoReferrer is set', () => {
    expect(referrerRefusal(rule, undefined, undefined)).toMatch(/neither a Referer nor an Origin header \(allowNoReferrer is not set\)/);
    expect(referrerRefusal(rule, '', '')).toMatch(/neither a Referer nor an Origin/);
    expect(referrerRefusal(compileReferrerRule(['https://example.org/*'], true), undefined, undefined)).toBeUndefined();
  });
});

describe('the configuration of a key for public pages', () => {
  const key = (fields: Record<string, unknown>) => configSchema.safeParse({ keys: [{ key: 'a-key-of-this-test', ...fields }] });
  const problems = (fields: Record<string, unknown>) => key(fields).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? [];

  it('takes the documented fields', () => {
    expect(key({ signingSecret: 'sixteen-chars-ok', requireSignature: true, referrers: ['https://*.example.org/*'], allowNoReferrer: true }).success).toBe(true);
  });

  it('refuses what cannot work, naming the field and never quoting the secret', () => {
    expect(problems({ requireSignature: true })).toEqual(["keys.0.requireSignature: 'requireSignature' needs a 'signingSecret' to check signatures with"]);
    expect(problems({ allowNoReferrer: true })).toEqual(["keys.0.allowNoReferrer: 'allowNoReferrer' applies only to a key with 'referrers'"]);
    expect(problems({ signingSecret: 'short-secret' })).toEqual(['keys.0.signingSecret: must be at least 16 characters (a random one: openssl rand -base64 32)']);
    expect(problems({ referrers: [] })).toHaveLength(1);
    for (const pattern of ['example.org', 'https://example.org/x?y=1', 'https://bücher.example/*', 'https:///x', 'https://a b/']) {
      expect(problems({ referrers: [pattern] }), pattern).toEqual([
        "keys.0.referrers.0: must be a pattern 'scheme://host/path' with '*' for any run of characters (https://*.example.org/*): the host in ASCII (punycode), no query or fragment",
      ]);
    }
  });
});
