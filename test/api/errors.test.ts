import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtures } from '../support/fixtures.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { child, parseXml } from '../support/xml.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ dataDir: writeFixtures(), limits: { maxSize: 4096, maxIds: 5, maxPixelsPerRequest: 64 * 1024 * 1024, requestTimeoutMs: 15_000 } });
});
afterAll(() => server.close());

const BASE = `file=squares&fid=0&format=json&key=${TEST_KEY}`;

async function call(query: string, init?: RequestInit) {
  const response = await fetch(server.url(`/REST/v1/shapefiles/images?${query}`), init);
  const text = await response.text();
  return { status: response.status, text, headers: response.headers };
}

async function expectError(query: string, status: number, ...phrases: string[]) {
  const { status: got, text, headers } = await call(query);
  expect(got, text).toBe(status);
  const body = JSON.parse(text);
  expect(body.StatusCode).toBe(status);
  expect(body.Resource).toBeNull();
  for (const phrase of phrases) expect(body.ErrorDetails).toContain(phrase);
  expect(headers.get('x-trace-id')).toBe(body.TraceId);
  return body;
}

describe('keys', () => {
  it('401 for a missing key, whatever else is wrong', async () => {
    await expectError('format=json&size=0,0', 401, "Parameter 'key' is required");
  });

  it('401 for an unknown key, and keys are case-sensitive', async () => {
    await expectError('file=squares&fid=0&format=json&key=nope', 401, "Parameter 'key' is not a valid access key");
    await expectError(`file=squares&fid=0&format=json&key=${TEST_KEY.toUpperCase()}`, 401, 'not a valid access key');
  });

  it('answers in XML when format does not parse', async () => {
    const { status, text } = await call('format=yaml');
    expect(status).toBe(401);
    const root = parseXml(text);
    expect(child(root, 'StatusCode')!.text).toBe('401');
    expect(child(root, 'StatusDescription')!.text).toBe('Unauthorized');
    expect(child(root, 'Resource')!.attributes['i:nil']).toBe('true');
  });

  it('never echoes the key in an error', async () => {
    const { text } = await call(`file=nothing&fid=0&format=json&key=${TEST_KEY}`);
    expect(text).not.toContain(TEST_KEY);
  });
});

describe('400 for every malformed or out-of-range parameter, naming it', () => {
  const cases: [string, string][] = [
    ['file', ''],
    ['fid', ''],
    ['fid', 'a'],
    ['fid', '1,,2'],
    ['fid', '-1'],
    ['fid', '1.2.3'],
    ['fid', '0,1,2,3,4,5'],
    ['size', '0,640'],
    ['size', '480'],
    ['size', '480,640,3'],
    ['size', '99999,640'],
    ['size', '4097,640'],
    ['size', 'a,b'],
    ['buffer', '-1'],
    ['buffer', '1.5'],
    ['buffer', '240'],
    ['singleImage', '2'],
    ['singleImage', 'true'],
    ['includeHotSpots', 'yes'],
    ['noCache', '-0'],
    ['theme', 'Neon'],
    ['reduceTol', '-1'],
    ['reduceTol', 'NaN'],
    ['reduceTol', 'Infinity'],
    ['format', 'gif'],
    ['lineColor', '#GGGGGG'],
    ['lineColor', '#12345'],
    ['lineWidth', '101'],
    ['lineWidth', '2px'],
    ['fillColor', 'notacolour'],
    ['bgColor1', '#1234567'],
    ['bgColor2', 'rgb(1,2,3)'],
    ['grid', '3'],
  ];
  for (const [name, value] of cases) {
    it(`${name}=${value}`, async () => {
      const query = new URLSearchParams({ file: 'squares', fid: '0', format: 'json', key: TEST_KEY });
      query.set(name, value);
      const { status, text } = await call(query.toString());
      expect(status, text).toBe(400);
      // A format that does not parse cannot choose the error's format: that one is XML.
      const details = name === 'format' ? child(parseXml(text), 'ErrorDetails')!.text : JSON.parse(text).ErrorDetails;
      expect(details).toContain(`Parameter '${name}'`);
      expect(details).toContain(`got '${value.trim()}'`);
    });
  }

  it('requires file, and fid or where', async () => {
    await expectError(`format=json&key=${TEST_KEY}`, 400, "Parameter 'file' is required.", "Parameter 'fid' or 'where' is required.");
  });

  it('lists the valid themes for an unknown one', async () => {
    await expectError(`${BASE}&theme=neon`, 400, 'Movie', 'ShapeServerBlue', 'TechGrid');
  });

  it('validates bgAngle only when both background colours are given', async () => {
    expect((await call(`${BASE}&bgAngle=400`)).status).toBe(200);
    await expectError(`${BASE}&bgAngle=400&bgColor1=red&bgColor2=blue`, 400, "Parameter 'bgAngle'");
  });

  it('validates grid settings only when grid=1', async () => {
    expect((await call(`${BASE}&gridSpace=1&gridColor=zzz`)).status).toBe(200);
    await expectError(`${BASE}&grid=1&gridSpace=1`, 400, "Parameter 'gridSpace'");
  });

  it('refuses a parameter given twice with different values', async () => {
    await expectError(`${BASE}&lineColor=red&linecolor=blue`, 400, "Parameter 'lineColor'", 'more than once');
  });

  it('refuses a request that would make too many pixels', async () => {
    await expectError(`file=squares&fid=0,0,0,0,0&size=4096,4096&format=json&key=${TEST_KEY}`, 400, 'pixels');
  });

  it('names every bad parameter at once', async () => {
    await expectError(`file=squares&fid=x&size=0,0&format=json&key=${TEST_KEY}`, 400, "Parameter 'fid'", "Parameter 'size'");
  });

  it('refuses a query that is not validly percent-encoded', async () => {
    await expectError(`${BASE}&lineColor=%E0%A4%A`, 400);
  });
});

describe('404', () => {
  it('for unknown and hostile shapefile names', async () => {
    for (const file of ['nothing', '../squares', '..%2Fsquares', '/etc/passwd', 'squares.shp', 'squares/..', '%00squares', 'C:\\squares']) {
      const body = await expectError(`file=${file}&fid=0&format=json&key=${TEST_KEY}`, 404, 'was not found');
      expect(body.StatusDescription).toBe('Not Found');
    }
  });

  it('for a feature past the last record, naming the id', async () => {
    await expectError(`file=squares&fid=0,99&format=json&key=${TEST_KEY}`, 404, '99');
  });

  it('for a null shape', async () => {
    await expectError(`file=squares&fid=3&format=json&key=${TEST_KEY}`, 404, 'Feature 3', 'null shape');
  });

  it('for a child past the last part', async () => {
    await expectError(`file=squares&fid=2.2&format=json&key=${TEST_KEY}`, 404, "'2.2'");
    await expectError(`file=squares&fid=0.1&format=json&key=${TEST_KEY}`, 404, "'0.1'");
    expect((await call(`file=squares&fid=0.0&format=json&key=${TEST_KEY}`)).status).toBe(200);
  });

  it('for an unknown path', async () => {
    const response = await fetch(server.url(`/REST/v1/shapefiles/nothing?format=json&key=${TEST_KEY}`));
    expect(response.status).toBe(404);
  });
});

describe('methods', () => {
  it('405 with Allow for anything but GET and HEAD', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await fetch(server.url(`/REST/v1/shapefiles/images?${BASE}`), { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect((await response.json()).ErrorDetails).toContain(method);
    }
  });
});

describe('format=png errors', () => {
  it('come as a JSON envelope', async () => {
    const response = await fetch(server.url(`/REST/v1/shapefiles/images?file=nothing&fid=0&format=png&key=${TEST_KEY}`));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await response.json()).StatusCode).toBe(404);
  });
});
