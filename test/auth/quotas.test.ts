/**
 * Quotas and usage against the real server (docs/configuration.md, "Quotas and usage";
 * docs/api.md, "Usage"): a key makes exactly its quota of requests, then gets 429 with the
 * reset time and Retry-After (the envelope, or /ogc's exception); what counts and what does
 * not; /REST/v1/usage in JSON and XML, free and answered past the quota; concurrent requests
 * never pass the quota together; counts outlive a reload that renames the key; /metrics
 * counts by key name, never the key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import { reloadConfiguration } from '../../src/server/reload.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { child, parseXml } from '../support/xml.ts';

const DAILY_KEY = 'daily-key-0123456789';
const BURST_KEY = 'burst-key-0123456789';
const PLAIN_KEY = 'plain-key-0123456789';
const KEYS = [
  { key: DAILY_KEY, name: 'website', quota: { perDay: 3, perMonth: 100 }, rateLimit: { perSecond: 50, burst: 100 }, maxConcurrent: 8 },
  { key: BURST_KEY, quota: { perDay: 5 } },
  { key: PLAIN_KEY },
];

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ keys: KEYS });
});
afterAll(() => server.close());

const IMAGE = '/REST/v1/shapefiles/images?file=countries&fid=0&size=32,32&format=png';
const get = (path: string, key: string, headers: Record<string, string> = {}) => fetch(server.url(`${path}&key=${key}`), { headers });
const usageOf = async (key: string) => (await (await get('/REST/v1/usage?format=json', key)).json()).Resource;

/** The next UTC midnight and first of a month, as the answers write them. */
function resets(now = new Date()) {
  const iso = (time: number) => new Date(time).toISOString().replace('.000Z', 'Z');
  return {
    day: iso(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)),
    month: iso(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}

describe('a key with a quota', () => {
  it('makes exactly its quota of counted requests (not 304s), then gets 429 with the reset time and Retry-After', async () => {
    const first = await get(IMAGE, DAILY_KEY);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect((await get(IMAGE, DAILY_KEY, { 'If-None-Match': etag })).status).toBe(304);
    expect((await get('/REST/v1/shapefiles/images?file=nowhere&fid=0&format=json', DAILY_KEY)).status).toBe(404);
    expect((await usageOf(DAILY_KEY)).Today.Count).toBe(2);
    expect((await get(IMAGE, DAILY_KEY)).status).toBe(200);

    const refused = await get(IMAGE.replace('format=png', 'format=json'), DAILY_KEY);
    expect(refused.status).toBe(429);
    const { day } = resets();
    const retryAfter = Number(refused.headers.get('retry-after'));
    const toMidnight = (Date.parse(day) - Date.now()) / 1000;
    expect(retryAfter).toBeGreaterThanOrEqual(Math.floor(toMidnight) - 2);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(toMidnight) + 1);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const envelope = await refused.json();
    expect(envelope).toMatchObject({ StatusCode: 429, StatusDescription: 'Too Many Requests', Resource: null });
    expect(envelope.ErrorDetails).toBe(
      `This access key has made the 3 requests its quota allows today (UTC); it may make more from ${day}. GET /REST/v1/usage shows its counts.`,
    );
    expect(envelope.ErrorDetails).not.toContain(DAILY_KEY);

    // /ogc answers its own exception, with the same status and Retry-After.
    const ogc = await fetch(server.url(`/ogc/collections?key=${DAILY_KEY}`));
    expect(ogc.status).toBe(429);
    expect(ogc.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await ogc.json()).toMatchObject({ code: 'TooManyRequests' });
  });

  it('sees its own counts, quotas, reset times and limits at /REST/v1/usage, in JSON and XML, without using its quota', async () => {
    const { day, month } = resets();
    const json = await get('/REST/v1/usage?format=json', DAILY_KEY);
    expect(json.status).toBe(200);
    expect(json.headers.get('cache-control')).toBe('no-store');
    const body = await json.json();
    expect(body).toMatchObject({ StatusCode: 200, ErrorDetails: '' });
    // The 429s above were not counted; nor is asking.
    expect(body.Resource).toEqual({
      __type: 'KeyUsage:http://schemas.microsoft.com/search/local/ws/rest/v1',
      Today: { Count: 3, Quota: 3, ResetsAt: day },
      ThisMonth: { Count: 3, Quota: 100, ResetsAt: month },
      RateLimit: { PerSecond: 50, Burst: 100 },
      MaxConcurrent: 8,
    });

    const xml = await get('/REST/v1/usage?', DAILY_KEY);
    expect(xml.headers.get('content-type')).toContain('application/xml');
    const root = parseXml(await xml.text());
    const resource = child(root, 'Resource')!;
    expect(resource.attributes['i:type']).toBe('KeyUsage');
    expect(resource.children.map((element) => element.name)).toEqual(['Today', 'ThisMonth', 'RateLimit', 'MaxConcurrent']);
    const today = child(resource, 'Today')!;
    expect(today.children.map((element) => [element.name, element.text])).toEqual([['Count', '3'], ['Quota', '3'], ['ResetsAt', day]]);
    expect(child(child(resource, 'RateLimit')!, 'PerSecond')!.text).toBe('50');

    const plain = parseXml(await (await get('/REST/v1/usage?format=xml', PLAIN_KEY)).text());
    const plainResource = child(plain, 'Resource')!;
    expect(child(child(plainResource, 'ThisMonth')!, 'Quota')!.attributes['i:nil']).toBe('true');
    expect(child(plainResource, 'RateLimit')!.attributes['i:nil']).toBe('true');
    expect(child(plainResource, 'MaxConcurrent')!.attributes['i:nil']).toBe('true');
  });

  it('never lets concurrent requests pass the quota together', async () => {
    const statuses = await Promise.all(Array.from({ length: 12 }, () => get('/REST/v1/shapefiles/images?file=nowhere&fid=0&format=json', BURST_KEY).then((r) => r.status)));
    expect(statuses.filter((status) => status === 404)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });

  it('keeps its counts through a reload that renames it and raises its quota', async () => {
    const { services } = server;
    const raised = KEYS.map((entry) => (entry.key === DAILY_KEY ? { ...entry, name: 'website-2', quota: { perDay: 5 } } : entry));
    reloadConfiguration(services.config, () => parseConfig({ ...services.config, keys: raised }), services);
    expect((await usageOf(DAILY_KEY)).Today).toMatchObject({ Count: 3, Quota: 5 });
    expect((await get(IMAGE, DAILY_KEY)).status).toBe(200);
    expect((await get(IMAGE, DAILY_KEY)).status).toBe(200);
    expect((await get(IMAGE, DAILY_KEY)).status).toBe(429);
  });
});

describe('/metrics', () => {
  it('counts requests and pictures by key name, never the key', async () => {
    await get('/REST/v1/shapefiles/images?file=countries&fid=0,1&size=32,32&format=json', PLAIN_KEY);
    const text = await (await fetch(server.url('/metrics'))).text();
    const series = text.split('\n').filter((line) => line.startsWith('shapeshot_key_'));
    expect(series).toEqual(expect.arrayContaining([expect.stringMatching(/^shapeshot_key_requests_total\{key_name="website"\} \d+$/)]));
    expect(series).toEqual(expect.arrayContaining([expect.stringMatching(/^shapeshot_key_pictures_total\{key_name="key:[0-9a-f]{8}"\} 2$/)]));
    for (const key of [DAILY_KEY, BURST_KEY, PLAIN_KEY]) expect(text).not.toContain(key);
  });
});
