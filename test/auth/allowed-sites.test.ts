/**
 * A key's referrers rule against the real server, with the headers written by hand as curl
 * writes them (docs/configuration.md, "Allowed sites"): the 403 in each route's error format,
 * naming the rule and never the key; requests with neither header; and what the rule does not
 * protect, a forged Referer. What Chromium really sends: test/browser/referrers.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRaw } from '../support/raw-request.ts';
import { startServer, type TestServer } from '../support/server.ts';

const SITE_KEY = 'site-key-0123456789';
const OPEN_KEY = 'site-key-open-0123456789';
const SIGNED_SITE_KEY = 'signed-site-key-0123456789';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    keys: [
      { key: SITE_KEY, referrers: ['https://*.example.org/*'] },
      { key: OPEN_KEY, referrers: ['https://*.example.org/*'], allowNoReferrer: true },
      { key: SIGNED_SITE_KEY, referrers: ['https://*.example.org/*'], signingSecret: 'a-secret-of-sixteen', requireSignature: true },
    ],
  });
});

afterAll(() => server?.close());

const image = (key: string, format = 'png') => `/REST/v1/shapefiles/images?file=countries&fid=0&format=${format}&size=64,64&key=${key}`;

/** A request as curl sends it: these headers and no others. */
async function get(target: string, headers: Record<string, string> = {}) {
  const outcome = await sendRaw(server.url(''), { method: 'GET', target, headers }, 10_000).outcome;
  if (outcome.kind !== 'answer') throw new Error(outcome.reason);
  return { status: outcome.status, body: outcome.body.toString('utf8') };
}

describe('a key with referrers', () => {
  it('serves a page the rule lists, by its full Referer, its origin alone, or its Origin', async () => {
    expect((await get(image(SITE_KEY), { Referer: 'https://maps.example.org/city/map.html?q=1' })).status).toBe(200);
    expect((await get(image(SITE_KEY), { Referer: 'https://maps.example.org/' })).status).toBe(200);
    expect((await get(image(SITE_KEY), { Origin: 'https://maps.example.org' })).status).toBe(200);
  });

  it('refuses another page with a 403 naming the rule and the page, never the key', async () => {
    const refused = await get(image(SITE_KEY, 'json'), { Referer: 'https://evil.example/steal.html' });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({
      StatusCode: 403,
      StatusDescription: 'Forbidden',
      ErrorDetails: "This key's referrers rule does not allow https://evil.example/steal.html (the request's Referer header).",
    });
    expect(refused.body).not.toContain(SITE_KEY);

    const both = await get(image(SITE_KEY, 'xml'), { Referer: 'https://maps.example.org/', Origin: 'https://evil.example' });
    expect(both.status).toBe(403);
    expect(both.body).toContain("<ErrorDetails>This key's referrers rule does not allow https://evil.example (the request's Origin header).</ErrorDetails>");
  });

  it("refuses on /ogc as well, in OGC API's exception", async () => {
    const refused = await get('/ogc/collections', { 'X-API-Key': SITE_KEY, Origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual({ code: 'Forbidden', description: "This key's referrers rule does not allow https://evil.example (the request's Origin header)." });
    expect((await get('/ogc/collections', { 'X-API-Key': SITE_KEY, Referer: 'https://a.example.org/' })).status).toBe(200);
  });

  it('refuses a request with neither header, unless allowNoReferrer', async () => {
    const refused = await get(image(SITE_KEY, 'json'));
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).ErrorDetails).toBe(
      "This key's referrers rule allows only the pages it lists, and this request has neither a Referer nor an Origin header (allowNoReferrer is not set).",
    );
    expect((await get(image(OPEN_KEY))).status).toBe(200);
    expect((await get(image(OPEN_KEY), { Referer: 'https://evil.example/' })).status).toBe(403);
  });

  it('is no defence against a client that writes its own headers, as the docs say', async () => {
    expect((await get(image(SITE_KEY), { Referer: 'https://forged.example.org/' })).status).toBe(200);
  });

  it('comes after the signature: an unsigned request from a listed page is refused for its signature', async () => {
    const refused = await get(image(SIGNED_SITE_KEY, 'json'), { Referer: 'https://maps.example.org/' });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).ErrorDetails).toMatch(/^This key accepts only signed URLs/);
  });
});
