import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_DATA_DIR } from '../../src/config/package-folders.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { child, parseXml } from '../support/xml.ts';

/**
 * where= selects features by their attributes for images and maps (docs/decisions.md,
 * "Browsing and selecting"), and hotSpotFields= puts attribute values on hot spots. The
 * data: the sample countries, and ogr_attrs, written by GDAL's ogr2ogr (test/fixtures/gdal).
 */
const GDAL_FIXTURES = fileURLToPath(new URL('../fixtures/gdal/', import.meta.url));

let server: TestServer;
beforeAll(async () => {
  const dataDir = makeTempDir('where-');
  cpSync(SAMPLE_DATA_DIR, dataDir, { recursive: true });
  for (const file of ['ogr_attrs', 'empty_shapes']) {
    for (const extension of ['shp', 'shx', 'dbf']) cpSync(join(GDAL_FIXTURES, `${file}.${extension}`), join(dataDir, `${file}.${extension}`));
  }
  server = await startServer({ dataDir, limits: { maxIds: 20, maxMapFeatures: 30 } });
});
afterAll(async () => {
  await server.close();
  removeTempDirs();
});

const get = (operation: 'images' | 'map', query: Record<string, string | number>) =>
  fetch(server.url(`/REST/v1/shapefiles/${operation}?${new URLSearchParams({ key: TEST_KEY, ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) })}`));

async function bytes(operation: 'images' | 'map', query: Record<string, string | number>): Promise<Buffer> {
  const response = await get(operation, { format: 'png', ...query });
  expect(response.status, await response.clone().text()).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

async function envelope(operation: 'images' | 'map', query: Record<string, string | number>) {
  const response = await get(operation, { format: 'json', ...query });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('where= on images', () => {
  it('gives exactly the image the equivalent fid list gives', async () => {
    const { body } = await envelope('images', { file: 'countries', where: "NAME LIKE 'Ne%'", singleImage: 1, includeHotSpots: 1, hotSpotFields: 'NAME' });
    const spots = body.Resource.ShapefileFeatureImages[0].FeatureHotSpots as { FeatureId: number; Attributes: { NAME: string } }[];
    const fids = [...new Set(spots.map((spot) => spot.FeatureId))];
    // The selection itself, apart from the picture: the four GDAL's `ogrinfo -where "NAME LIKE 'Ne%'"` lists.
    expect([...new Set(spots.map((spot) => spot.Attributes.NAME))].sort()).toEqual(['Nepal', 'Netherlands', 'New Caledonia', 'New Zealand']);
    expect(fids.length).toBe(4);
    expect(await bytes('images', { file: 'countries', where: "NAME LIKE 'Ne%'", singleImage: 1 })).toEqual(
      await bytes('images', { file: 'countries', fid: fids.join(','), singleImage: 1 }),
    );
  });

  it('makes one image per matching feature in record order: ItemId its position, FeatureId its id', async () => {
    const { status, body } = await envelope('images', { file: 'countries', where: "NAME IN ('Netherlands', 'Belgium', 'Luxembourg')", size: '32,32' });
    expect(status).toBe(200);
    const images = body.Resource.ShapefileFeatureImages as { ItemId: number; FeatureId: number }[];
    expect(images.map((image) => image.ItemId)).toEqual([1, 2, 3]);
    const ids = images.map((image) => image.FeatureId);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('narrows a fid list, keeping its order and children', async () => {
    const { body: all } = await envelope('images', { file: 'countries', where: "NAME = 'Netherlands' OR NAME = 'Belgium'", size: '32,32' });
    const [first, second] = (all.Resource.ShapefileFeatureImages as { FeatureId: number }[]).map((image) => image.FeatureId);
    const { body } = await envelope('images', { file: 'countries', fid: `${second},0,${first},${second}`, where: "NAME = 'Netherlands' OR NAME = 'Belgium'", size: '32,32' });
    expect((body.Resource.ShapefileFeatureImages as { FeatureId: number }[]).map((image) => image.FeatureId)).toEqual([second, first, second]);
  });

  it('reads types as GDAL wrote them: numbers, dates, nulls', async () => {
    const spots = async (where: string) => {
      const { status, body } = await envelope('images', { file: 'ogr_attrs', where, singleImage: 1, includeHotSpots: 1, hotSpotFields: 'name,count' });
      return status === 404 ? [] : (body.Resource.ShapefileFeatureImages[0].FeatureHotSpots as { FeatureId: number; Attributes: object }[]);
    };
    expect((await spots('COUNT > 0')).map((spot) => spot.FeatureId)).toEqual([0]);
    expect((await spots("WHEN < DATE('2000-01-01')")).map((spot) => spot.FeatureId)).toEqual([1]);
    expect((await spots('count IS NULL')).map((spot) => spot.Attributes)).toEqual([{ NAME: null, COUNT: null }]);
    expect((await spots('RATIO BETWEEN -1 AND 0')).map((spot) => spot.Attributes)).toEqual([{ NAME: 'second', COUNT: -7 }]);
  });

  it('answers 404 when nothing matches, 400 past maxIds naming the count, 400 naming an unknown field', async () => {
    const none = await envelope('images', { file: 'countries', where: "NAME = 'Atlantis'" });
    expect(none.status).toBe(404);
    expect(none.body.ErrorDetails).toContain('matches the filter');
    const many = await envelope('images', { file: 'countries', where: "NAME LIKE '%a%'", singleImage: 1 });
    expect(many.status).toBe(400);
    expect(many.body.ErrorDetails).toMatch(/selects more than 20 features of shapefile 'countries'; at most 20 \(limits\.maxIds\)/);
    const unknown = await envelope('images', { file: 'countries', where: "NAAM = 'x'" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.ErrorDetails).toContain("unknown property 'NAAM'");
  });

  it('selects only features that have a shape to draw, as a map of the whole file draws them', async () => {
    // empty_shapes (ogr2ogr): records 0, 1, 3 and 4 are null shapes, 2 an empty polygon, 5 a square.
    const { status, body } = await envelope('images', { file: 'empty_shapes', where: "NAME LIKE 'empty_shapes %'", size: '32,32' });
    expect(status, JSON.stringify(body.ErrorDetails)).toBe(200);
    expect((body.Resource.ShapefileFeatureImages as { FeatureId: number }[]).map((image) => image.FeatureId)).toEqual([5]);
    const listed = await envelope('images', { file: 'empty_shapes', fid: '0,5', where: "NAME LIKE 'empty_shapes %'", size: '32,32' });
    expect(listed.status).toBe(404);
    expect(listed.body.ErrorDetails).toContain('has no geometry');
  });

  it("requires fid or where, and says so", async () => {
    const { status, body } = await envelope('images', { file: 'countries' });
    expect(status).toBe(400);
    expect(body.ErrorDetails).toBe("Parameter 'fid' or 'where' is required.");
  });

  it('refuses hostile filters with 400s and stays responsive', async () => {
    const hostile = ['('.repeat(4000) + "NAME = 'x'", "NAME = 'x".padEnd(5000, 'x'), "NAME LIKE '" + '%_'.repeat(200) + "' AND 1 = 'a'", "NAME = 'a' AND"];
    for (const where of hostile) {
      const { status, body } = await envelope('images', { file: 'countries', where });
      expect(status, where.slice(0, 40)).toBe(400);
      expect(body.ErrorDetails.length).toBeLessThan(400);
    }
  });
});

describe('where= on maps', () => {
  it('gives exactly the map the equivalent fid list gives', async () => {
    const where = "NAME IN ('Netherlands', 'Belgium', 'Luxembourg')";
    const { body } = await envelope('map', { file: 'countries', where, includeHotSpots: 1 });
    const fids = [...new Set(body.Resource.ShapefileFeatureImages[0].FeatureHotSpots.map((spot: { FeatureId: number }) => spot.FeatureId))];
    expect(fids).toHaveLength(3);
    expect(await bytes('map', { file: 'countries', where })).toEqual(await bytes('map', { file: 'countries', fid: fids.join(',') }));
  });

  it('answers 400 past maxMapFeatures, naming the count', async () => {
    const { status, body } = await envelope('map', { file: 'countries', where: "NAME LIKE '%a%'" });
    expect(status).toBe(400);
    expect(body.ErrorDetails).toMatch(/at most 30 \(limits\.maxMapFeatures\)/);
  });
});

describe('hotSpotFields=', () => {
  it('adds the values after the existing members, in JSON and in XML', async () => {
    const { body } = await envelope('images', { file: 'countries', where: "NAME = 'Netherlands'", includeHotSpots: 1, hotSpotFields: 'name,NAME_NL' });
    const spot = body.Resource.ShapefileFeatureImages[0].FeatureHotSpots[0];
    expect(Object.keys(spot)).toEqual(['FeatureId', 'Fid', 'Shape', 'Coords', 'Attributes']);
    expect(spot.Attributes).toEqual({ NAME: 'Netherlands', NAME_NL: 'Nederland' });

    const xml = await (await get('images', { file: 'countries', where: "NAME = 'Netherlands'", includeHotSpots: 1, hotSpotFields: 'name' })).text();
    const image = child(child(parseXml(xml), 'Resource')!, 'ShapefileFeatureImages')!.children[0];
    const area = child(child(image, 'FeatureHotSpots')!, 'HotSpot')!;
    expect(area.children.map((element) => element.name)).toEqual(['FeatureId', 'Fid', 'Shape', 'Coords', 'Attributes']);
    const attribute = child(child(area, 'Attributes')!, 'Attribute')!;
    expect([attribute.attributes.Name, attribute.text]).toEqual(['NAME', 'Netherlands']);
  });

  it("puts the values on a map's hot spots too, and names an unknown field there", async () => {
    const { status, body } = await envelope('map', { file: 'countries', where: "NAME = 'Netherlands'", includeHotSpots: 1, hotSpotFields: 'NAME_NL' });
    expect(status).toBe(200);
    const spots = body.Resource.ShapefileFeatureImages[0].FeatureHotSpots;
    expect(spots.length).toBeGreaterThan(0);
    for (const spot of spots) expect(spot.Attributes).toEqual({ NAME_NL: 'Nederland' });
    const unknown = await envelope('map', { file: 'countries', where: "NAME = 'Netherlands'", includeHotSpots: 1, hotSpotFields: 'capital' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.ErrorDetails).toContain("has no field 'capital'");
  });

  it('names an unknown field, and is ignored without includeHotSpots', async () => {
    const unknown = await envelope('images', { file: 'countries', fid: 0, includeHotSpots: 1, hotSpotFields: 'name,capital' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.ErrorDetails).toContain("has no field 'capital'");
    const ignored = await envelope('images', { file: 'countries', fid: 0, hotSpotFields: 'capital' });
    expect(ignored.status).toBe(200);
  });
});
