/**
 * The demo key stays local (decisions.md, "Shapefiles and keys"): with real Host and Origin
 * headers, as a browser sends them, against a running server. A page of another site cannot
 * read through it, nor a DNS-rebinding page under its own host name; pages served from this
 * machine still can, and configured keys keep CORS open.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEY } from '../../src/config/schema.ts';
import { writeFixtures } from '../support/fixtures.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * GET (or another method) `path` with exactly these headers: node:http lets a test set Host,
 * which fetch does not. `path` may be an absolute URL, sent as the request target.
 */
function send(server: TestServer, path: string, headers: Record<string, string>, method = 'GET'): Promise<Answer> {
  const { hostname, port } = new URL(server.url('/'));
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname, port, path, method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

let server: TestServer;
let port: string;
const IMAGE = `/REST/v1/shapefiles/images?file=lines&fid=0&format=png&key=${DEMO_KEY}`;
const OGC = `/ogc/collections/lines/items?key=${DEMO_KEY}`;

beforeAll(async () => {
  // No keys configured, listening on loopback: the demo key is on, as after a fresh `npm start`.
  server = await startServer({ dataDir: writeFixtures(), keys: [] });
  port = new URL(server.url('/')).port;
});

afterAll(() => server.close());

describe('the demo key', () => {
  it.each(['127.0.0.1', 'localhost', '[::1]', '127.1.2.3'])('works for Host %s with any port, or none', async (host) => {
    for (const value of [`${host}:${port}`, host]) {
      const answer = await send(server, IMAGE, { Host: value });
      expect(answer.status, `${value}: ${answer.body}`).toBe(200);
      expect(answer.headers['content-type']).toBe('image/png');
    }
  });

  it.each(['evil.example', '127.0.0.1.evil.example', 'localhost.evil.example'])(
    'is refused for Host %s: a DNS-rebinding page sends its own host name',
    async (host) => {
      for (const path of [IMAGE, OGC]) {
        const answer = await send(server, path, { Host: `${host}:${port}` });
        expect(answer.status, path).toBe(401);
        expect(answer.body).toContain(`The demo key works only for requests to and from this machine (Host 127.0.0.1, localhost or [::1]); this request was sent to Host '${host}:${port}'`);
        expect(answer.body).toContain('configure an access key');
        expect(answer.body).not.toContain(DEMO_KEY);
      }
    },
  );

  it('is refused when the request target names another host, whatever Host says', async () => {
    const answer = await send(server, `http://evil.example:${port}${IMAGE}`, { Host: `127.0.0.1:${port}` });
    expect(answer.status).toBe(401);
    expect(answer.body).toContain("this request was sent to Host 'evil.example:");
  });

  it.each(['https://evil.example', 'http://evil.example:8080', 'null', 'http://127.0.0.1.evil.example'])(
    'is refused for a page of Origin %s: its images, /ogc and hot spots stay unread',
    async (origin) => {
      for (const path of [IMAGE, OGC, `/REST/v1/shapefiles/images?file=lines&fid=0&format=json&includeHotSpots=1&key=${DEMO_KEY}`]) {
        const answer = await send(server, path, { Host: `127.0.0.1:${port}`, Origin: origin });
        expect(answer.status, path).toBe(401);
        expect(answer.body).toContain(`this request comes from a page of Origin '${origin}'`);
        expect(answer.body).not.toContain(DEMO_KEY);
        // Not even `*`: the page would learn that a shapeshot with the demo key runs there.
        expect(answer.headers['access-control-allow-origin'], path).toBeUndefined();
      }
    },
  );

  it('lets no page read the 401 of a foreign Host either', async () => {
    const answer = await send(server, OGC, { Host: `evil.example:${port}`, Origin: `http://evil.example:${port}` });
    expect(answer.status).toBe(401);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves pages on loopback, allowing their own origin only', async () => {
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, 'http://localhost:5173', 'https://[::1]']) {
      for (const path of [IMAGE, OGC]) {
        const answer = await send(server, path, { Host: `127.0.0.1:${port}`, Origin: origin });
        expect(answer.status, `${origin} ${path}`).toBe(200);
        expect(answer.headers['access-control-allow-origin']).toBe(origin);
        expect(answer.headers.vary).toMatch(/\bOrigin\b/);
      }
    }
  });

  it('sends no Access-Control-Allow-Origin without an Origin, errors included: a * kept in a cache could be read by any page', async () => {
    for (const [path, status] of [
      [IMAGE, 200],
      [OGC, 200],
      [`/ogc/collections/nothing?key=${DEMO_KEY}`, 404],
      [`/REST/v1/shapefiles/images?file=lines&fid=99&format=json&key=${DEMO_KEY}`, 404],
    ] as const) {
      const answer = await send(server, path, { Host: `localhost:${port}` });
      expect(answer.status, path).toBe(status);
      expect(answer.headers['access-control-allow-origin'], path).toBeUndefined();
      expect(answer.headers.vary, path).toMatch(/\bOrigin\b/);
    }
  });

  it('works from the X-API-Key header too, under the same rules', async () => {
    const local = await send(server, '/ogc/collections', { Host: `127.0.0.1:${port}`, Origin: `http://127.0.0.1:${port}`, 'X-API-Key': DEMO_KEY });
    expect(local.status).toBe(200);
    expect(local.headers['access-control-allow-origin']).toBe(`http://127.0.0.1:${port}`);
    expect(local.headers.vary).toMatch(/\bOrigin\b.*\bX-API-Key\b/);
    const foreign = await send(server, '/ogc/collections', { Host: `127.0.0.1:${port}`, Origin: 'https://evil.example', 'X-API-Key': DEMO_KEY });
    expect(foreign.status).toBe(401);
  });

  it('leaves the CORS preflight answered without a key', async () => {
    const answer = await send(
      server,
      '/ogc/collections',
      { Host: `127.0.0.1:${port}`, Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' },
      'OPTIONS',
    );
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-headers']).toBe('x-api-key');
  });
});

describe('a configured key', () => {
  let configured: TestServer;

  beforeAll(async () => {
    configured = await startServer({ dataDir: writeFixtures() });
  });

  afterAll(() => configured.close());

  it('keeps CORS open to pages of any site: it is meant for them', async () => {
    const { port: configuredPort } = new URL(configured.url('/'));
    const answer = await send(configured, `/REST/v1/shapefiles/images?file=lines&fid=0&format=png&key=${TEST_KEY}`, {
      Host: `127.0.0.1:${configuredPort}`,
      Origin: 'https://maps.example',
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
  });
});
