import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createKeyRing } from '../../src/auth/keys.ts';
import { isLoopbackHost } from '../../src/auth/local-requests.ts';
import { createRateLimiter } from '../../src/auth/rate-limit.ts';
import { DEMO_KEY } from '../../src/config/schema.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('key ring', () => {
  it('knows plain and hashed keys, exactly and case-sensitively', () => {
    const ring = createKeyRing([{ key: 'plain-secret-1' }, { sha256: sha256('hashed-secret-2'), name: 'team' }], {
      allowDemoKey: false,
    });
    expect(ring.authenticate('plain-secret-1')?.label).toMatch(/^key:[0-9a-f]{8}$/);
    expect(ring.authenticate('hashed-secret-2')?.label).toBe('team');
    expect(ring.authenticate('PLAIN-SECRET-1')).toBeUndefined();
    expect(ring.authenticate('plain-secret-1 ')).toBeUndefined();
    expect(ring.authenticate('')).toBeUndefined();
    expect(ring.authenticate(undefined)).toBeUndefined();
  });

  it('never puts the key itself in the label it logs', () => {
    const ring = createKeyRing([{ key: 'plain-secret-1' }], { allowDemoKey: false });
    expect(ring.authenticate('plain-secret-1')!.label).not.toContain('plain-secret-1');
  });

  it('accepts the demo key only when allowed', () => {
    expect(createKeyRing([], { allowDemoKey: true }).authenticate(DEMO_KEY)?.label).toBe('demo');
    expect(createKeyRing([], { allowDemoKey: false }).authenticate(DEMO_KEY)).toBeUndefined();
  });

  it("carries a key's shapefile scope in lower case", () => {
    const grant = createKeyRing([{ key: 'scoped-secret', shapefiles: ['Gemeenten'] }], { allowDemoKey: false }).authenticate(
      'scoped-secret',
    );
    expect([...grant!.shapefiles!]).toEqual(['gemeenten']);
  });

  it('allows the demo key on loopback addresses only', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.2', 'example.org', '127.0.0.1.example.org']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});

describe('rate limiter', () => {
  it('allows a burst, then refills at its rate', () => {
    let now = 0;
    const limiter = createRateLimiter(2, 3, () => now);
    expect([1, 2, 3].map(() => limiter.take().allowed)).toEqual([true, true, true]);
    expect(limiter.take()).toEqual({ allowed: false, retryAfterSeconds: 1 });
    now = 400;
    expect(limiter.take().allowed).toBe(false);
    now = 500;
    expect(limiter.take().allowed).toBe(true);
    expect(limiter.take().allowed).toBe(false);
    now = 60_000;
    expect([1, 2, 3, 4].map(() => limiter.take().allowed)).toEqual([true, true, true, false]);
  });
});
