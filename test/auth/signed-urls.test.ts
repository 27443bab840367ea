/**
 * Signed URLs against the real server (docs/configuration.md, "Signed URLs"): the three
 * recipes of that page, run as written there (node, python3, sh with openssl), sign URLs the
 * server accepts; a changed parameter is refused; the answer stays cacheable; /ogc's rule;
 * refused requests take no rate-limit token; the secret is in no answer and no log line.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRaw } from '../support/raw-request.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

const run = promisify(execFile);

const SIGNED_KEY = 'signed-key-0123456789';
const SECRET = 'the-signing-secret-of-the-tests';
const OPTIONAL_KEY = 'optional-key-0123456789';
const OPTIONAL_SECRET = 'the-other-signing-secret';
const LIMITED_KEY = 'limited-key-0123456789';

/** The code blocks of docs/configuration.md's "Signed URLs", by language: the recipes a user copies. */
function recipes(): Record<'js' | 'python' | 'sh', string> {
  const page = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
  const start = page.indexOf('\n### Signed URLs\n');
  const section = page.slice(start, page.indexOf('\n### ', start + 1));
  const blocks = Object.fromEntries([...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map(([, language, code]) => [language, code]));
  expect(Object.keys(blocks)).toEqual(['js', 'python', 'sh']);
  return blocks as Record<'js' | 'python' | 'sh', string>;
}

type Signer = (pathAndQuery: string, secret: string) => Promise<string>;

/** Each recipe called as its comment says, in the program it is written for. */
function signers(folder: string): Record<string, Signer> {
  const { js, python, sh } = recipes();
  const script = join(folder, 'sign.mjs');
  writeFileSync(script, `${js}\nconsole.log(signed(process.argv[2], process.argv[3]));\n`);
  const output = async (command: Promise<{ stdout: string }>) => (await command).stdout.trim();
  return {
    'JavaScript (node:crypto)': (path, secret) => output(run(process.execPath, [script, path, secret])),
    'Python (hmac, hashlib, base64)': (path, secret) =>
      output(run('python3', ['-c', `${python}\nimport sys\nprint(signed(sys.argv[1], sys.argv[2]))`, path, secret])),
    'shell (openssl dgst -hmac, base64, tr)': (path, secret) => output(run('sh', ['-c', `${sh}\nsigned "$1" "$2"`, 'sh', path, secret])),
  };
}

let server: TestServer;
let sign: Record<string, Signer>;

beforeAll(async () => {
  sign = signers(makeTempDir('signed-urls-'));
  server = await startServer({
    logLevel: 'debug',
    keys: [
      { key: SIGNED_KEY, name: 'public-page', signingSecret: SECRET, requireSignature: true },
      { key: OPTIONAL_KEY, signingSecret: OPTIONAL_SECRET },
      { key: LIMITED_KEY, signingSecret: SECRET, requireSignature: true, rateLimit: { perSecond: 0.001, burst: 1 } },
    ],
  });
});

afterAll(async () => {
  await server?.close();
  removeTempDirs();
});

const IMAGE = `/REST/v1/shapefiles/images?file=countries&fid=0&format=png&size=64,64&key=${SIGNED_KEY}`;

/** Every answer's headers and body, to look for the secrets in. */
const answers: string[] = [];

/** The answer to a path and query, with the error's details when it is one. */
async function get(pathAndQuery: string, headers: Record<string, string> = {}) {
  const response = await fetch(server.url(pathAndQuery), { headers });
  const body = await response.text();
  response.headers.forEach((value, name) => answers.push(`${name}: ${value}`));
  answers.push(body);
  const details = response.headers.get('content-type')?.includes('json') ? (JSON.parse(body).ErrorDetails ?? JSON.parse(body).description) : body;
  return { status: response.status, type: response.headers.get('content-type'), etag: response.headers.get('etag'), details, body };
}

describe.each(['JavaScript (node:crypto)', 'Python (hmac, hashlib, base64)', 'shell (openssl dgst -hmac, base64, tr)'])('the recipe in %s', (recipe) => {
  it('signs the example of the docs as they show it', async () => {
    const example = '/REST/v1/shapefiles/images?file=countries&fid=0&format=png&key=website-key-0123';
    expect(await sign[recipe](example, 'an-example-signing-secret')).toBe(`${example}&signature=mGKxyCZIuX0e3ewCX8Kb88oUzFfS98y4HG2AsuTYm50`);
  });

  it('signs a URL the server accepts; a changed parameter is refused', async () => {
    const signed = await sign[recipe](IMAGE, SECRET);
    expect(signed).toMatch(/&signature=[\w-]{43}$/);
    const accepted = await get(signed);
    expect(accepted.status).toBe(200);
    expect(accepted.type).toBe('image/png');

    const changed = await get(signed.replace('fid=0', 'fid=1'));
    expect(changed.status).toBe(403);
    expect(changed.details).toBe("Parameter 'signature' does not match this URL: sign its path and query as sent, up to the signature, with this key's signing secret.");
  });

  it("signs a filter with ' in it, sent as written and as fetch() encodes it", async () => {
    const where = `/REST/v1/shapefiles/images?file=countries&where=NAME%20LIKE%20'A%25'&singleImage=1&format=png&size=64,64&key=${SIGNED_KEY}`;
    const signed = await sign[recipe](where, SECRET);
    const raw = await sendRaw(server.url(''), { method: 'GET', target: signed, headers: {} }, 10_000).outcome;
    expect(raw.kind === 'answer' && raw.status).toBe(200);
    expect((await get(signed)).status).toBe(200);
  });
});

describe('a key with requireSignature', () => {
  it('refuses an unsigned request with a 403 that says what is missing, in the envelope of the format asked for', async () => {
    const json = await get(IMAGE.replace('format=png', 'format=json'));
    expect(json.status).toBe(403);
    expect(JSON.parse(json.body)).toMatchObject({ StatusCode: 403, StatusDescription: 'Forbidden', Resource: null });
    expect(json.details).toMatch(/^This key accepts only signed URLs: add the parameter 'signature', last, made with the key's signing secret/);

    const xml = await get(IMAGE.replace('format=png', 'format=xml'));
    expect(xml.status).toBe(403);
    expect(xml.body).toContain('<StatusCode>403</StatusCode><StatusDescription>Forbidden</StatusDescription>');
  });

  it('refuses a malformed or misplaced signature, saying which', async () => {
    const signed = await sign['JavaScript (node:crypto)'](IMAGE, SECRET);
    const signature = signed.slice(signed.indexOf('&signature=') + 1);
    expect((await get(`${signed}=`)).details).toMatch(/^Parameter 'signature' must be 43 characters of URL-safe base64/);
    expect((await get(`${IMAGE.replace('?', `?${signature}&`)}`)).details).toBe("Parameter 'signature' must be the last parameter of the URL.");
  });

  it('accepts the key in X-API-Key, the signature over the URL without it; with both, the key parameter is the one checked', async () => {
    const withoutKey = IMAGE.replace(`&key=${SIGNED_KEY}`, '');
    const signed = await sign['Python (hmac, hashlib, base64)'](withoutKey, SECRET);
    expect((await get(signed, { 'X-API-Key': SIGNED_KEY })).status).toBe(200);
    // The parameter's key needs no signature; the header's key, ignored, would have.
    const optionalInQuery = `${withoutKey}&key=${OPTIONAL_KEY}`;
    expect((await get(optionalInQuery, { 'X-API-Key': SIGNED_KEY })).status).toBe(200);
    expect((await get(`${withoutKey}&key=${SIGNED_KEY}`, { 'X-API-Key': OPTIONAL_KEY })).status).toBe(403);
  });

  it('is refused on /ogc, which takes no signature, with OGC API\'s exception', async () => {
    const ogc = await get('/ogc/collections', { 'X-API-Key': SIGNED_KEY });
    expect(ogc.status).toBe(403);
    expect(JSON.parse(ogc.body)).toEqual({
      code: 'Forbidden',
      description: 'This key accepts only signed URLs, which only the /REST/v1 routes take (OGC API clients follow links, which carry no signature): use another key here.',
    });
    expect((await get('/ogc/collections', { 'X-API-Key': OPTIONAL_KEY })).status).toBe(200);
  });

  it('takes no rate-limit token for a request it refuses', async () => {
    const limited = IMAGE.replace(SIGNED_KEY, LIMITED_KEY);
    for (let i = 0; i < 3; i++) expect((await get(limited)).status).toBe(403);
    const signed = await sign['JavaScript (node:crypto)'](limited, SECRET);
    expect((await get(signed)).status).toBe(200);
    // The one token is spent now: the rate limit is counted, after the signature.
    expect((await get(signed)).status).toBe(503);
  });
});

describe('a key with a signing secret, not requireSignature', () => {
  const optional = IMAGE.replace(SIGNED_KEY, OPTIONAL_KEY);

  it('serves unsigned requests, and checks a signature that comes', async () => {
    expect((await get(optional)).status).toBe(200);
    expect((await get(await sign['shell (openssl dgst -hmac, base64, tr)'](optional, OPTIONAL_SECRET))).status).toBe(200);
    expect((await get(await sign['shell (openssl dgst -hmac, base64, tr)'](optional, SECRET))).status).toBe(403);
  });

  it('keeps a signed URL cacheable: the signature is not part of the ETag', async () => {
    const unsigned = await get(optional);
    const signedUrl = await sign['JavaScript (node:crypto)'](optional, OPTIONAL_SECRET);
    const signed = await get(signedUrl);
    expect(signed.status).toBe(200);
    expect(signed.etag).toMatch(/^"/);
    expect(signed.etag).toBe(unsigned.etag);
    const again = await fetch(server.url(signedUrl), { headers: { 'If-None-Match': signed.etag! } });
    expect(again.status).toBe(304);
    // A changed parameter is refused before the cache is asked: no 304 for a forged URL.
    const forged = await fetch(server.url(signedUrl.replace('size=64,64', 'size=64,65')), { headers: { 'If-None-Match': signed.etag! } });
    expect(forged.status).toBe(403);
  });
});

describe('the secret', () => {
  it('appears in no answer and no log line of all the requests above', () => {
    expect(server.log.length).toBeGreaterThan(0);
    expect(answers.length).toBeGreaterThan(0);
    for (const secret of [SECRET, OPTIONAL_SECRET]) {
      expect(server.log.filter((line) => line.includes(secret))).toEqual([]);
      expect(answers.filter((answer) => answer.includes(secret))).toEqual([]);
    }
  });
});
