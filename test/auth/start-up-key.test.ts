/**
 * The start-up key (docs/configuration.md, "The start-up key"), with real Host, Origin and
 * Sec-Fetch-Site headers, as a browser sends them, against a running server: no well-known key
 * exists any more, the random one serves this machine's own pages and programs, and a page of
 * another site cannot use it, nor a DNS-rebinding page under its own host name; configured keys
 * keep CORS open. Then Debian's nginx in front, as an operator's first reverse proxy would be.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtures } from '../support/fixtures.ts';
import { freePort } from '../support/nginx.ts';
import { sendRaw } from '../support/raw-request.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { until } from '../support/until.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** GET (or another method) `target` with exactly these headers, Host included; `target` may be an absolute URL. */
async function send(origin: string, target: string, headers: Record<string, string>, method = 'GET'): Promise<Answer> {
  const outcome = await sendRaw(origin, { method, target, headers }, 20_000).outcome;
  if (outcome.kind !== 'answer') throw new Error(`no answer to ${target}: ${outcome.reason}`);
  return { status: outcome.status, headers: outcome.headers, body: outcome.body.toString('utf8') };
}

const ROUTES = [
  '/REST/v1/shapefiles/images?file=lines&fid=0&format=png',
  '/REST/v1/shapefiles/map?file=lines&format=png',
  '/REST/v1/shapefiles/legend?file=squares&styleBy=NAME&format=json',
  '/REST/v1/usage?format=json',
  '/ogc/collections',
  '/ogc/collections/lines/items',
];

let server: TestServer;
let origin: string;
let port: string;
let key: string;
const image = () => `/REST/v1/shapefiles/images?file=lines&fid=0&format=png&key=${key}`;
const ogc = () => `/ogc/collections/lines/items?key=${key}`;

beforeAll(async () => {
  // No keys configured, listening on loopback: as after a fresh `npm start`.
  server = await startServer({ dataDir: writeFixtures(), keys: [] });
  origin = server.url('');
  port = new URL(origin).port;
  key = server.services.keys.startUpKey()!;
});

afterAll(async () => {
  await server?.close();
  removeTempDirs();
});

describe('the start-up key', () => {
  it('is random, and no well-known key works in its place: shapeshot-demo is refused on every route', async () => {
    expect(key).toMatch(/^[0-9a-f]{48}$/);
    for (const route of ROUTES) {
      const answer = await send(origin, `${route}${route.includes('?') ? '&' : '?'}key=shapeshot-demo`, { Host: `127.0.0.1:${port}` });
      expect(answer.status, route).toBe(401);
      const byHeader = await send(origin, route, { Host: `127.0.0.1:${port}`, 'X-API-Key': 'shapeshot-demo' });
      expect(byHeader.status, route).toBe(401);
    }
  });

  it('differs from one start to the next: the key of the one before opens nothing', async () => {
    const again = await startServer({ dataDir: writeFixtures(), keys: [] });
    try {
      const next = again.services.keys.startUpKey()!;
      expect(next).not.toBe(key);
      expect((await fetch(again.url(`/REST/v1/shapefiles/images?file=lines&fid=0&format=png&key=${key}`))).status).toBe(401);
      expect((await fetch(again.url(`/REST/v1/shapefiles/images?file=lines&fid=0&format=png&key=${next}`))).status).toBe(200);
    } finally {
      await again.close();
    }
  });

  it.each(['127.0.0.1', 'localhost', '[::1]', '127.1.2.3'])('works for Host %s with any port, or none', async (host) => {
    for (const value of [`${host}:${port}`, host]) {
      const answer = await send(origin, image(), { Host: value });
      expect(answer.status, `${value}: ${answer.body}`).toBe(200);
      expect(answer.headers['content-type']).toBe('image/png');
    }
  });

  it.each(['evil.example', '127.0.0.1.evil.example', 'localhost.evil.example'])('is refused (403) for Host %s: a DNS-rebinding page sends its own host name', async (host) => {
    for (const path of [image(), ogc()]) {
      const answer = await send(origin, path, { Host: `${host}:${port}` });
      expect(answer.status, path).toBe(403);
      expect(answer.body).toContain(
        `The start-up key of a server on loopback serves only requests to and from this machine (Host 127.0.0.1, localhost or [::1]); this request was sent to Host '${host}:${port}'`,
      );
      expect(answer.body).toContain('configure an access key');
      expect(answer.body).not.toContain(key);
    }
  });

  it('is refused when the request target names another host, whatever Host says', async () => {
    const answer = await send(origin, `http://evil.example:${port}${image()}`, { Host: `127.0.0.1:${port}` });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain("this request was sent to Host 'evil.example:");
  });

  it.each(['https://evil.example', 'http://evil.example:8080', 'null', 'http://127.0.0.1.evil.example'])(
    'is refused for a page of Origin %s: its images, /ogc and hot spots stay unread',
    async (pageOrigin) => {
      for (const path of [image(), ogc(), `/REST/v1/shapefiles/images?file=lines&fid=0&format=json&includeHotSpots=1&key=${key}`]) {
        const answer = await send(origin, path, { Host: `127.0.0.1:${port}`, Origin: pageOrigin });
        expect(answer.status, path).toBe(403);
        expect(answer.body).toContain(`this request comes from a page of Origin '${pageOrigin}'`);
        expect(answer.body).not.toContain(key);
        // Not even `*`: the page would learn that a shapeshot runs there, and why it refused.
        expect(answer.headers['access-control-allow-origin'], path).toBeUndefined();
      }
    },
  );

  it('is refused on a request the browser marks cross-site, even an <img> that sends no Origin; same-site, same-origin and typed addresses are served', async () => {
    for (const path of [image(), ogc()]) {
      const refused = await send(origin, path, { Host: `127.0.0.1:${port}`, 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Dest': 'image' });
      expect(refused.status, path).toBe(403);
      expect(refused.body).toContain('The start-up key serves no page of another site, and the browser marked this request Sec-Fetch-Site: cross-site');
      expect(refused.body).not.toContain(key);
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();
      for (const site of ['same-site', 'same-origin', 'none']) {
        expect((await send(origin, path, { Host: `127.0.0.1:${port}`, 'Sec-Fetch-Site': site })).status, `${site} ${path}`).toBe(200);
      }
    }
  });

  it('lets no page read the 403 of a foreign Host either', async () => {
    const answer = await send(origin, ogc(), { Host: `evil.example:${port}`, Origin: `http://evil.example:${port}` });
    expect(answer.status).toBe(403);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves pages on loopback, allowing their own origin only', async () => {
    for (const pageOrigin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, 'http://localhost:5173', 'https://[::1]']) {
      for (const path of [image(), ogc()]) {
        const answer = await send(origin, path, { Host: `127.0.0.1:${port}`, Origin: pageOrigin });
        expect(answer.status, `${pageOrigin} ${path}`).toBe(200);
        expect(answer.headers['access-control-allow-origin']).toBe(pageOrigin);
        expect(answer.headers.vary).toMatch(/\bOrigin\b/);
      }
    }
  });

  it('sends no Access-Control-Allow-Origin without an Origin, errors included: a * kept in a cache could be read by any page', async () => {
    for (const [path, status] of [
      [image(), 200],
      [ogc(), 200],
      [`/ogc/collections/nothing?key=${key}`, 404],
      [`/REST/v1/shapefiles/images?file=lines&fid=99&format=json&key=${key}`, 404],
    ] as const) {
      const answer = await send(origin, path, { Host: `localhost:${port}` });
      expect(answer.status, path).toBe(status);
      expect(answer.headers['access-control-allow-origin'], path).toBeUndefined();
      expect(answer.headers.vary, path).toMatch(/\bOrigin\b/);
    }
  });

  it('works from the X-API-Key header too, under the same rules', async () => {
    const local = await send(origin, '/ogc/collections', { Host: `127.0.0.1:${port}`, Origin: `http://127.0.0.1:${port}`, 'X-API-Key': key });
    expect(local.status).toBe(200);
    expect(local.headers['access-control-allow-origin']).toBe(`http://127.0.0.1:${port}`);
    expect(local.headers.vary).toMatch(/\bOrigin\b.*\bX-API-Key\b/);
    const foreign = await send(origin, '/ogc/collections', { Host: `127.0.0.1:${port}`, Origin: 'https://evil.example', 'X-API-Key': key });
    expect(foreign.status).toBe(403);
  });

  it('is served through a proxy like any request: the key is the defence, not where the request came from', async () => {
    for (const header of [{ 'X-Forwarded-For': '203.0.113.9' }, { Forwarded: 'for=203.0.113.9' }] as Record<string, string>[]) {
      expect((await send(origin, image(), { Host: `127.0.0.1:${port}`, ...header })).status).toBe(200);
    }
  });

  it('leaves the CORS preflight answered without a key', async () => {
    const answer = await send(
      origin,
      '/ogc/collections',
      { Host: `127.0.0.1:${port}`, Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' },
      'OPTIONS',
    );
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-headers']).toBe('x-api-key');
  });
});

describe('the start-up key of a server listening on every interface', () => {
  let everywhere: TestServer;
  let everywhereKey: string;

  beforeAll(async () => {
    // `host` as configured decides the rules; the test's server itself listens on loopback.
    everywhere = await startServer({ dataDir: writeFixtures(), keys: [], host: '0.0.0.0' });
    everywhereKey = everywhere.services.keys.startUpKey()!;
  });

  afterAll(() => everywhere?.close());

  it('serves any Host (the machine is reached by its own names), but never a page of another site', async () => {
    const served = everywhere.url('');
    const path = `/REST/v1/shapefiles/images?file=lines&fid=0&format=png&key=${everywhereKey}`;
    expect((await send(served, path, { Host: 'maps.example.org' })).status).toBe(200);
    const sameSite = await send(served, path, { Host: 'maps.example.org', Origin: 'https://app.example.org', 'Sec-Fetch-Site': 'same-site' });
    expect(sameSite.status).toBe(200);
    // Served, but not readable by that page: only loopback pages are given CORS.
    expect(sameSite.headers['access-control-allow-origin']).toBeUndefined();
    expect((await send(served, path, { Host: 'maps.example.org', 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
  });
});

describe('a configured key', () => {
  let configured: TestServer;

  beforeAll(async () => {
    configured = await startServer({ dataDir: writeFixtures() });
  });

  afterAll(() => configured.close());

  it('leaves no start-up key, and keeps CORS open to pages of any site: it is meant for them', async () => {
    expect(configured.services.keys.startUpKey()).toBeUndefined();
    const { port: configuredPort } = new URL(configured.url('/'));
    const answer = await send(configured.url(''), `/REST/v1/shapefiles/images?file=lines&fid=0&format=png&key=${TEST_KEY}`, {
      Host: `127.0.0.1:${configuredPort}`,
      Origin: 'https://maps.example',
      'Sec-Fetch-Site': 'cross-site',
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect((await fetch(configured.url('/REST/v1/shapefiles/images?file=lines&fid=0&format=png&key=shapeshot-demo'))).status).toBe(401);
  });
});

/** Debian's nginx-light, or the one NGINX names (as test/support/nginx.ts finds it). */
const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';

/**
 * nginx as an operator's first reverse proxy: `location / { proxy_pass … }` and nothing else,
 * so nginx sends `Host: 127.0.0.1:PORT` upstream and no X-Forwarded-For. Returns its origin and
 * how to stop it.
 */
async function startProxy(upstreamPort: string): Promise<{ origin: string; stop(): Promise<void> }> {
  if (!existsSync(NGINX)) throw new Error(`This test needs nginx at ${NGINX}. Install it (Debian/Ubuntu: apt-get install nginx-light), or set NGINX to its path.`);
  const prefix = makeTempDir('shapeshot-proxy-');
  mkdirSync(join(prefix, 'logs'));
  const port = await freePort();
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `${kind}_temp_path ${join(prefix, kind)};`).join('\n  ');
  writeFileSync(
    join(prefix, 'nginx.conf'),
    `master_process off;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'logs', 'error.log')} warn;
events { worker_connections 64; }
http {
  ${temp}
  access_log off;
  server {
    listen 127.0.0.1:${port};
    location / { proxy_pass http://127.0.0.1:${upstreamPort}; }
  }
}
`,
  );
  const child: ChildProcess = spawn(NGINX, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  let running = true;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => (running = false));
  const proxyOrigin = `http://127.0.0.1:${port}`;
  await until(async () => {
    if (!running) throw new Error(`nginx stopped at start-up: ${stderr}`);
    return fetch(`${proxyOrigin}/health`).then(
      (response) => response.ok,
      () => false,
    );
  });
  return {
    origin: proxyOrigin,
    async stop() {
      if (running) child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('behind nginx with its default proxy_pass (Host rewritten to loopback, no X-Forwarded-For)', () => {
  let proxy: Awaited<ReturnType<typeof startProxy>>;

  beforeAll(async () => {
    proxy = await startProxy(port);
  });

  afterAll(() => proxy?.stop());

  it('opens nothing to a client that knows no key: shapeshot-demo and no key are both 401', async () => {
    const demo = await send(proxy.origin, '/REST/v1/shapefiles/images?file=lines&fid=0&format=png&key=shapeshot-demo', { Host: 'maps.example.org' });
    expect(demo.status).toBe(401);
    const bare = await send(proxy.origin, '/ogc/collections', { Host: 'maps.example.org' });
    expect(bare.status).toBe(401);
    expect(bare.headers['content-type']).toMatch(/^application\/json/);
  });

  it('serves whoever has the start-up key, and still no page of another site', async () => {
    expect((await send(proxy.origin, image(), { Host: 'maps.example.org' })).status).toBe(200);
    expect((await send(proxy.origin, image(), { Host: 'maps.example.org', 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
  });
});
