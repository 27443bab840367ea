import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createKeyRing } from '../../src/auth/keys.ts';
import { createRateLimiter } from '../../src/auth/rate-limit.ts';
import { isLoopbackHost, makeStartUpKey } from '../../src/auth/start-up-key.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('key ring', () => {
  it('knows plain and hashed keys, exactly and case-sensitively', () => {
    const ring = createKeyRing([{ key: 'plain-secret-1' }, { sha256: sha256('hashed-secret-2'), name: 'team' }]);
    expect(ring.authenticate('plain-secret-1')?.label).toMatch(/^key:[0-9a-f]{8}$/);
    expect(ring.authenticate('hashed-secret-2')?.label).toBe('team');
    expect(ring.authenticate('PLAIN-SECRET-1')).toBeUndefined();
    expect(ring.authenticate('plain-secret-1 ')).toBeUndefined();
    expect(ring.authenticate('')).toBeUndefined();
    expect(ring.authenticate(undefined)).toBeUndefined();
  });

  it('never puts the key itself in the label it logs', () => {
    const ring = createKeyRing([{ key: 'plain-secret-1' }]);
    expect(ring.authenticate('plain-secret-1')!.label).not.toContain('plain-secret-1');
  });

  it('knows no well-known key: an empty ring accepts nothing, shapeshot-demo included', () => {
    expect(createKeyRing([]).authenticate('shapeshot-demo')).toBeUndefined();
    expect(createKeyRing([], { startUpKey: { key: makeStartUpKey(), listensOnLoopback: true } }).authenticate('shapeshot-demo')).toBeUndefined();
  });

  it('puts the start-up key in force while no keys are, and back when a reload removes them all', () => {
    const startUpKey = makeStartUpKey();
    const ring = createKeyRing([], { startUpKey: { key: startUpKey, listensOnLoopback: true } });
    expect(ring.startUpKey()).toBe(startUpKey);
    const grant = ring.authenticate(startUpKey);
    expect(grant).toMatchObject({ label: 'start-up', startUp: { listensOnLoopback: true } });
    expect(grant!.label).not.toContain(startUpKey);

    ring.replace([{ key: 'configured-secret' }]);
    expect(ring.authenticate(startUpKey)).toBeUndefined();
    expect(ring.startUpKey()).toBeUndefined();
    expect(ring.authenticate('configured-secret')?.startUp).toBeUndefined();

    ring.replace([]);
    // The same key, with the same grant: its usage counts carry over, and the key printed at start works again.
    expect(ring.startUpKey()).toBe(startUpKey);
    expect(ring.authenticate(startUpKey)).toBe(grant);
    expect(ring.authenticate('configured-secret')).toBeUndefined();
  });

  it('has no start-up key when the server started with keys, even once they are all removed', () => {
    const ring = createKeyRing([{ key: 'configured-secret' }]);
    ring.replace([]);
    expect(ring.startUpKey()).toBeUndefined();
    expect(ring.authenticate('configured-secret')).toBeUndefined();
  });

  it('makes a start-up key of 192 random bits in hexadecimal, a new one each time', () => {
    const keys = new Set(Array.from({ length: 100 }, makeStartUpKey));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{48}$/);
  });

  it("carries a key's shapefile scope in lower case", () => {
    const grant = createKeyRing([{ key: 'scoped-secret', shapefiles: ['Gemeenten'] }]).authenticate('scoped-secret');
    expect([...grant!.shapefiles!]).toEqual(['gemeenten']);
  });

  it('tells loopback addresses, where the start-up key checks Host and Origin, from others', () => {
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
