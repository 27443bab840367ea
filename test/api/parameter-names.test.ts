/**
 * Misspelled parameter names on a running server (docs/decisions.md, "Parameter values"): a near
 * miss of the operation's parameter is a 400 naming the parameter meant, while
 * cache-busters and parameters ignored because of another still answer as without them,
 * and the key is checked before any of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtures } from '../support/fixtures.ts';
import { imagesUrl, startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { child, parseXml } from '../support/xml.ts';
import { allTypes, CHECKERBOARD_PLUGIN, mapUrl } from '../map/support.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    dataDir: writeFixtures(),
    basemaps: { providers: { board: { plugin: CHECKERBOARD_PLUGIN, options: { cell: 64 } } }, types: allTypes('board') },
  });
});
afterAll(() => server.close());

type Query = Record<string, string | number>;
const urlOf = (operation: 'images' | 'map', query: Query) => (operation === 'images' ? imagesUrl(server, query) : mapUrl(server, query));

async function answer(operation: 'images' | 'map', query: Query, init: RequestInit = {}) {
  const response = await fetch(urlOf(operation, query), init);
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

const errorDetails = (json: string) => (JSON.parse(json) as { ErrorDetails: string }).ErrorDetails;

describe('a near miss of a parameter', () => {
  it("fromat=png: 400 naming 'format', in XML since no format parsed", async () => {
    const { status, type, text } = await answer('images', { file: 'squares', fid: 0, fromat: 'png' });
    expect(status).toBe(400);
    expect(type).toMatch(/xml/);
    expect(child(parseXml(text), 'ErrorDetails')!.text).toBe("Unknown parameter 'fromat': did you mean 'format'?");
  });

  it("fids=0: 400 naming 'fid', not only that fid or where is required", async () => {
    const { status, text } = await answer('images', { file: 'squares', fids: 0, format: 'json' });
    expect(status).toBe(400);
    expect(errorDetails(text)).toBe("Unknown parameter 'fids': did you mean 'fid'?");
  });

  it('names the parameter as the client spelled it, and the one meant as the interface does', async () => {
    const { status, text } = await answer('map', { file: 'points', fid: 0, format: 'json', LineColour: 'blue' });
    expect(status).toBe(400);
    expect(errorDetails(text)).toBe("Unknown parameter 'LineColour': did you mean 'lineColor'?");
  });

  it('names every near miss of a request', async () => {
    const { status, text } = await answer('images', { file: 'squares', fid: 0, format: 'json', sise: '10,10', singleimages: 1 });
    expect(status).toBe(400);
    expect(errorDetails(text)).toBe("Unknown parameter 'sise': did you mean 'size'? Unknown parameter 'singleimages': did you mean 'singleImage'?");
  });

  it("keys=… beside the key in X-API-Key: 400 naming 'key', without the value", async () => {
    const { status, text } = await answer('images', { file: 'squares', fid: 0, format: 'json', keys: 'not-a-key-value' }, { headers: { 'X-API-Key': TEST_KEY } });
    expect(status).toBe(400);
    expect(errorDetails(text)).toBe("Unknown parameter 'keys': did you mean 'key'?");
    expect(text).not.toContain('not-a-key-value');
  });

  it('is refused after the key is checked: without one, 401', async () => {
    const response = await fetch(server.url('/REST/v1/shapefiles/images?file=squares&fid=0&fromat=png'));
    expect(response.status).toBe(401);
  });
});

describe('names left ignored', () => {
  it.each([
    ['_', 12345],
    ['v', 2],
    ['t', 1700000000],
    ['cb', 'x'],
    ['ts', 1700000000],
    ['time', 1700000000],
    ['callback', 'cb'],
    ['random', 0.5],
    ['utm_source', 'mail'],
  ])('%s=%s: the same picture as without it, on images and map', async (name, value) => {
    for (const [operation, file] of [['images', 'squares'], ['map', 'points']] as const) {
      const plain = { file, fid: 0, format: 'png', size: '60,80' };
      const [without, withName] = await Promise.all([
        fetch(urlOf(operation, plain)).then(async (response) => ({ status: response.status, bytes: Buffer.from(await response.arrayBuffer()) })),
        fetch(urlOf(operation, { ...plain, [name]: value })).then(async (response) => ({ status: response.status, bytes: Buffer.from(await response.arrayBuffer()) })),
      ]);
      expect(withName.status, withName.bytes.toString()).toBe(200);
      expect(withName.bytes.equals(without.bytes)).toBe(true);
    }
  });

  it.each([
    ['theme', 'Blue'],
    ['fillColor', 'Green'],
    ['singleImage', '1'],
    ['reduceTol', '5'],
  ])("the images operation's %s on a map", async (name, value) => {
    const { status, text } = await answer('map', { file: 'points', fid: 0, format: 'json', [name]: value });
    expect(status, text).toBe(200);
  });

  it("a near miss of the images operation's parameter on a map (docs/decisions.md: of the same operation)", async () => {
    const { status, text } = await answer('map', { file: 'points', fid: 0, format: 'json', themes: 'Blue' });
    expect(status, text).toBe(200);
  });

  it.each([
    ['culture', 'Dutch'],
    ['zoom', '5'],
    ['useBoundingBox', '1'],
    ['type', 'Aerial'],
  ])("the map operation's %s on images", async (name, value) => {
    const { status, text } = await answer('images', { file: 'squares', fid: 0, format: 'json', [name]: value });
    expect(status, text).toBe(200);
  });

  it('hotSpotFields without includeHotSpots=1, and a grid setting without grid=1, unvalidated', async () => {
    const { status, text } = await answer('images', { file: 'squares', fid: 0, format: 'json', hotSpotFields: 'NOPE', gridSpace: 'x' });
    expect(status, text).toBe(200);
  });
});
