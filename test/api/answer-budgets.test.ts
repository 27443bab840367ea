/**
 * What an answer sends back is budgeted before the work (docs/decisions.md, "Cost, load and
 * cancellation"): hot spots (limits.maxHotSpots), their attribute values
 * (limits.maxHotSpotAttributeBytes) and the answer's bytes (limits.maxAnswerBytes); envelopes
 * are written on the drawing workers; format=png draws only the picture it answers. The data:
 * a generated file of many address points with many wide text fields, as a user's would be,
 * served by real servers on loopback.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Position } from 'geojson';
import { createShapefileWriter } from '../../scripts/lib/shapefile-writer.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { WGS84_PRJ } from '../support/fixtures.ts';
import { decodePng } from '../support/png.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { child, parseXml, type XmlElement } from '../support/xml.ts';

/** More points than the default limits.maxHotSpots (10,000) allows hot spots. */
const POINTS = 12_000;
const FIELDS = Array.from({ length: 20 }, (_, i) => ({ name: `F${i}`, type: 'C' as const, length: 60 }));
const valueOf = (field: number, point: number) => `field ${field} of point ${point} & <more>`;

let dataDir: string;
let server: TestServer;
/** Small limits, to meet each budget with a few features. */
let strict: TestServer;

beforeAll(async () => {
  dataDir = makeTempDir('answer-budgets-');
  const points = createShapefileWriter(join(dataDir, 'addresses'), {
    shapeType: ShapeType.Point,
    fields: [{ name: 'ID', type: 'N', length: 9 }, ...FIELDS],
    prj: WGS84_PRJ,
  });
  for (let i = 0; i < POINTS; i++) {
    const attributes: Record<string, string | number> = { ID: i };
    FIELDS.forEach((field, f) => (attributes[field.name] = valueOf(f, i)));
    points.write({ type: 'Point', coordinates: [4 + (i % 120) * 0.02, 51.5 + Math.floor(i / 120) * 0.01] }, attributes);
  }
  points.close();
  // One record of many points: as many hot spots as points, known from its header alone.
  const cluster = createShapefileWriter(join(dataDir, 'cluster'), { shapeType: ShapeType.MultiPoint, fields: FIELDS.slice(0, 1), prj: WGS84_PRJ });
  const coordinates: Position[] = Array.from({ length: 500 }, (_, i) => [5 + (i % 25) * 0.01, 52 + Math.floor(i / 25) * 0.01]);
  cluster.write({ type: 'MultiPoint', coordinates }, { F0: 'cluster' });
  cluster.close();
  // One line of 3,000 vertices: about 80 KB of GeoJSON in a single feature.
  const long = createShapefileWriter(join(dataDir, 'long-line'), { shapeType: ShapeType.PolyLine, fields: FIELDS.slice(0, 1), prj: WGS84_PRJ });
  long.write({ type: 'LineString', coordinates: Array.from({ length: 3000 }, (_, i) => [4 + i * 0.000123457, 52 + (i % 7) * 0.000111113]) }, { F0: 'long' });
  long.close();

  [server, strict] = await Promise.all([
    startServer({ dataDir, serverTiming: true }),
    startServer({ dataDir, limits: { maxHotSpots: 100, maxHotSpotAttributeBytes: 20_000, maxAnswerBytes: 40_000 } }),
  ]);
});

afterAll(async () => {
  await Promise.all([server?.close(), strict?.close()]);
  removeTempDirs();
});

const url = (target: TestServer, operation: 'images' | 'map', query: Record<string, string | number>) =>
  target.url(`/REST/v1/shapefiles/${operation}?${new URLSearchParams({ key: TEST_KEY, ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) })}`);

const ids = (count: number, from = 0) => Array.from({ length: count }, (_, i) => from + i).join(',');
const allFields = FIELDS.map((field) => field.name).join(',');

interface JsonHotSpot {
  FeatureId: number;
  Fid: string;
  Shape: string;
  Coords: string;
  Attributes?: Record<string, unknown>;
}

async function errorDetails(response: Response): Promise<string> {
  const text = await response.text();
  if (text.startsWith('<')) return child(parseXml(text), 'ErrorDetails')!.text;
  return JSON.parse(text).ErrorDetails;
}

describe('the hot spots of an answer', () => {
  it.each(['xml', 'json'])('refuse a map of every point with all fields (%s): 400 naming limits.maxHotSpots, before anything is drawn', async (format) => {
    const before = server.services.jobs.stats.finished;
    const response = await fetch(url(server, 'map', { file: 'addresses', includeHotSpots: 1, hotSpotFields: allFields, format }));
    expect(response.status).toBe(400);
    const details = await errorDetails(response);
    expect(details).toContain(`up to ${POINTS} hot spots`);
    expect(details).toContain('at most 10000 (limits.maxHotSpots)');
    expect(details).toContain("'includeHotSpots=0'");
    expect(details).toContain("'zoom'");
    // The view's features counted from their record headers, and nothing else: no drawing job ran.
    expect(server.services.jobs.stats.finished - before).toBe(2);
  });

  it('are counted per part before decoding: a multipoint record of 500 points is 500 hot spots, one of its children one', async () => {
    const whole = await fetch(url(strict, 'images', { file: 'cluster', fid: 0, includeHotSpots: 1, format: 'json' }));
    expect(whole.status).toBe(400);
    expect(await errorDetails(whole)).toContain('up to 500 hot spots; at most 100 (limits.maxHotSpots)');
    const child = await fetch(url(strict, 'images', { file: 'cluster', fid: '0.7', includeHotSpots: 1, format: 'json' }));
    expect(child.status).toBe(200);
    expect((await child.json()).Resource.ShapefileFeatureImages[0].FeatureHotSpots).toHaveLength(1);
  });

  it('refuse attribute values past limits.maxHotSpotAttributeBytes, counted from the .dbf widths', async () => {
    // 20 fields of 60 bytes, with their names (2 or 3 bytes) and 30 bytes of markup: 1,850 bytes a hot spot, 18,500 for ten.
    const many = await fetch(url(strict, 'map', { file: 'addresses', fid: ids(11), includeHotSpots: 1, hotSpotFields: allFields }));
    expect(many.status).toBe(400);
    const details = await errorDetails(many);
    expect(details).toContain('up to 20350 bytes (11 hot spots of 1850 bytes each');
    expect(details).toContain('at most 20000 (limits.maxHotSpotAttributeBytes)');
    expect(details).toContain("'hotSpotFields'");
    const fewer = await fetch(url(strict, 'map', { file: 'addresses', fid: ids(10), includeHotSpots: 1, hotSpotFields: allFields }));
    expect(fewer.status, await fewer.clone().text()).toBe(200);
  });

  it('are not made, counted or refused for format=png: the picture alone carries none', async () => {
    const response = await fetch(url(server, 'map', { file: 'addresses', includeHotSpots: 1, hotSpotFields: allFields, format: 'png', size: '64,64' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
  });
});

describe('the bytes of an answer', () => {
  it('refuse an envelope past limits.maxAnswerBytes, naming it, the size and what to change', async () => {
    const response = await fetch(url(strict, 'images', { file: 'addresses', fid: ids(100), format: 'json', size: '64,64' }));
    expect(response.status).toBe(400);
    const details = await errorDetails(response);
    expect(details).toMatch(/^The answer would be more than \d+ bytes long; at most 40000 bytes \(limits\.maxAnswerBytes\)/);
    expect(details).toContain("'format=xml'");
    expect(details).toContain("'singleImage=1'");
    // The same images as one: well within the limit.
    const single = await fetch(url(strict, 'images', { file: 'addresses', fid: ids(100), format: 'json', size: '64,64', singleImage: 1 }));
    expect(single.status).toBe(200);
  });

  it('refuse a picture alone past the limit too', async () => {
    // The SVG of a thousand points is larger than 40,000 bytes.
    const query = { file: 'addresses', fid: ids(1000), singleImage: 1, format: 'svg', size: '64,64' };
    const allowed = await fetch(url(server, 'images', query));
    expect((await allowed.arrayBuffer()).byteLength).toBeGreaterThan(40_000);
    const response = await fetch(url(strict, 'images', query));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await errorDetails(response)).toContain("(limits.maxAnswerBytes) can be sent in one answer. Ask for a smaller 'size' or 'scale', or fewer");
  });
  it('refuse an /ogc page past the limit as it grows, in OGC\'s exception, saying to ask for fewer features or fields', async () => {
    const page = (target: TestServer, query: string) =>
      fetch(target.url(`/ogc/collections/addresses/items?${query}`), { headers: { 'X-API-Key': TEST_KEY } });
    // Sixty features of 20 wide fields: about 100 KB of GeoJSON, past 40,000 bytes.
    const allowed = await page(server, 'limit=60');
    expect((await allowed.arrayBuffer()).byteLength).toBeGreaterThan(40_000);
    const response = await page(strict, 'limit=60');
    expect(response.status).toBe(400);
    const exception = (await response.json()) as { code: string; description: string };
    expect(exception.description).toMatch(/^The answer would be more than \d+ bytes long; at most 40000 bytes \(limits\.maxAnswerBytes\)/);
    expect(exception.description).toContain("Ask for fewer features with 'limit', or fewer fields with 'properties'.");
    // The same page with one field fits.
    expect((await page(strict, 'limit=60&properties=ID')).status).toBe(200);
  });

  it('refuse a single /ogc item past the limit: one feature can hold a page\'s worth of vertices', async () => {
    const item = (target: TestServer) => fetch(target.url('/ogc/collections/long-line/items/0'), { headers: { 'X-API-Key': TEST_KEY } });
    const allowed = await item(server);
    expect(allowed.status).toBe(200);
    expect((await allowed.arrayBuffer()).byteLength).toBeGreaterThan(40_000);
    const response = await item(strict);
    expect(response.status).toBe(400);
    const exception = (await response.json()) as { code: string; description: string };
    expect(exception.description).toMatch(/^The answer would be more than \d+ bytes long; at most 40000 bytes \(limits\.maxAnswerBytes\)/);
    expect(exception.description).toContain("Ask for fewer fields with 'properties'");
    // A small feature of the same server still fits.
    expect((await fetch(strict.url('/ogc/collections/addresses/items/3'), { headers: { 'X-API-Key': TEST_KEY } })).status).toBe(200);
  });
});

describe('a bounded envelope', () => {
  const query = { file: 'addresses', where: 'ID < 40', includeHotSpots: 1, hotSpotFields: 'F3,ID,F19', size: '200,300' };

  it('carries the same hot spots and attribute values in XML and JSON, as the .dbf holds them, with the same picture', async () => {
    const [xmlResponse, jsonResponse] = await Promise.all([fetch(url(server, 'map', { ...query, format: 'xml' })), fetch(url(server, 'map', { ...query, format: 'json' }))]);
    expect(xmlResponse.status).toBe(200);
    expect(jsonResponse.status).toBe(200);
    const json = await jsonResponse.json();
    const root = parseXml(await xmlResponse.text());
    expect(root.children.map((element) => element.name)).toEqual(['Copyright', 'StatusCode', 'StatusDescription', 'ErrorDetails', 'TraceId', 'Resource']);

    const spots: JsonHotSpot[] = json.Resource.ShapefileFeatureImages[0].FeatureHotSpots;
    expect(spots.map((spot) => spot.FeatureId)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    for (const spot of spots) {
      expect(Object.keys(spot)).toEqual(['FeatureId', 'Fid', 'Shape', 'Coords', 'Attributes']);
      expect(spot.Attributes).toEqual({ F3: valueOf(3, spot.FeatureId), ID: spot.FeatureId, F19: valueOf(19, spot.FeatureId) });
    }

    const image = child(child(child(root, 'Resource')!, 'ShapefileFeatureImages')!, 'ShapefileFeatureImage')!;
    expect(image.children.map((element) => element.name)).toEqual(['ItemId', 'FeatureId', 'FeatureImage', 'FeatureHotSpots']);
    const xmlSpots = child(image, 'FeatureHotSpots')!.children.map((spot: XmlElement) => ({
      FeatureId: Number(child(spot, 'FeatureId')!.text),
      Fid: child(spot, 'Fid')!.text,
      Shape: child(spot, 'Shape')!.text,
      Coords: child(spot, 'Coords')!.text,
      Attributes: Object.fromEntries(child(spot, 'Attributes')!.children.map((attribute) => [attribute.attributes.Name, attribute.text])),
    }));
    expect(xmlSpots).toEqual(spots.map((spot) => ({ ...spot, Attributes: { F3: spot.Attributes!.F3, ID: String(spot.Attributes!.ID), F19: spot.Attributes!.F19 } })));

    const xmlPicture = decodePng(Buffer.from(child(image, 'FeatureImage')!.text, 'base64'));
    const jsonPicture = decodePng(Uint8Array.from(json.Resource.ShapefileFeatureImages[0].FeatureImage as number[]));
    expect([xmlPicture.width, xmlPicture.height]).toEqual([300, 200]);
    expect(Buffer.from(xmlPicture.data).equals(Buffer.from(jsonPicture.data))).toBe(true);
  });

  it('is written on the drawing worker: its part of the answer is a stage of the drawing job', async () => {
    const response = await fetch(url(server, 'map', { ...query, format: 'xml' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('server-timing')).toMatch(/(^|, )part;dur=/);
  });

  it('leaves /health answered while a heavy one is being made', async () => {
    const stats = () => server.services.jobs.stats;
    const before = stats().finished;
    const order: string[] = [];
    // 9,000 hot spots with three fields: within every budget, seconds of a worker's time.
    const heavy = fetch(url(server, 'map', { file: 'addresses', where: 'ID < 9000', includeHotSpots: 1, hotSpotFields: 'F0,F1,F2', format: 'json' })).then(
      async (response) => {
        const body = await response.json();
        order.push('heavy');
        return { status: response.status, spots: body.Resource?.ShapefileFeatureImages[0].FeatureHotSpots.length };
      },
    );
    // The selection and the features' step are done and the drawing job has started (or, if
    // the order below is to fail, is done already).
    const drawing = () => (stats().finished >= before + 2 && stats().running > 0) || stats().finished >= before + 3;
    while (!drawing()) await new Promise((resolve) => setImmediate(resolve));
    const probe = await fetch(server.url('/health'));
    order.push('health');
    expect(probe.status).toBe(200);
    expect(await heavy).toEqual({ status: 200, spots: 9000 });
    expect(order).toEqual(['health', 'heavy']);
  });
});

describe('format=png and svg', () => {
  const many = { file: 'addresses', fid: ids(200), size: '48,64' };

  it.each(['png', 'svg'])('draw only the picture they answer (%s), whatever the number of ids: one drawing job', async (format) => {
    const before = server.services.jobs.stats.finished;
    const response = await fetch(url(server, 'images', { ...many, format }));
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(server.services.jobs.stats.finished - before).toBe(1);
  });

  it('answer the first image of the selection, as the envelope carries it, under an ETag that still names the request', async () => {
    const picture = await fetch(url(server, 'images', { ...many, format: 'png' }));
    const bytes = new Uint8Array(await picture.arrayBuffer());
    const first = await fetch(url(server, 'images', { ...many, fid: '0,1', format: 'json' }));
    const envelope = await first.json();
    expect(Buffer.from(bytes).equals(Buffer.from(Uint8Array.from(envelope.Resource.ShapefileFeatureImages[0].FeatureImage as number[])))).toBe(true);

    const etag = picture.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    const before = server.services.jobs.stats.finished;
    const again = await fetch(url(server, 'images', { ...many, format: 'png' }), { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(server.services.jobs.stats.finished).toBe(before);
    const others = await fetch(url(server, 'images', { ...many, fid: ids(200, 1), format: 'png' }), { method: 'HEAD' });
    expect(others.headers.get('etag')).not.toBe(etag);
  });

  it('count one picture in the pixel budget', async () => {
    // 200 images of 2048 × 2048 would be far past limits.maxPixelsPerRequest; one is within it.
    const response = await fetch(url(server, 'images', { ...many, size: '2048,2048', format: 'png' }));
    expect(response.status).toBe(200);
    const envelope = await fetch(url(server, 'images', { ...many, size: '2048,2048', format: 'xml' }));
    expect(envelope.status).toBe(400);
    expect(await errorDetails(envelope)).toContain('(limits.maxPixelsPerRequest)');
  });
});
