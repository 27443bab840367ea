/**
 * /ogc items with a `bbox` decode only the records across the box's edge, and those are
 * budgeted as a page is: their vertices, counted from the record headers before any is
 * decoded, past `ogc.maxPageVertices` answer 400 naming the limit.
 */
import { join } from 'node:path';
import type { Position } from 'geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShapefileWriter } from '../../scripts/lib/shapefile-writer.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { square } from '../support/fixtures.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { get } from './support.ts';

const CIRCLE_VERTICES = 600;
/** More than one circle's vertices, fewer than two circles'. */
const MAX_PAGE_VERTICES = 1000;

/** A ring of `count` vertices around (lon, lat), closed. */
function circle(lon: number, lat: number, radius: number, count: number): Position[] {
  const ring = Array.from({ length: count }, (_, i): Position => {
    const angle = (-2 * Math.PI * i) / count;
    return [lon + radius * Math.cos(angle), lat + radius * Math.sin(angle)];
  });
  return [...ring, ring[0]];
}

let server: TestServer;

beforeAll(async () => {
  const dir = makeTempDir('shapeshot-bbox-');
  const writer = createShapefileWriter(join(dir, 'shapes'), { shapeType: ShapeType.Polygon, fields: [] });
  // Lon/lat without a .prj, so that a record inside a box is known to be by its bounding box alone.
  // 0 and 1: circles of 600 vertices, 1° around (5, 52) and (8, 52); 2: a square of 1° from (20, 10).
  writer.write({ type: 'Polygon', coordinates: [circle(5, 52, 1, CIRCLE_VERTICES)] }, {});
  writer.write({ type: 'Polygon', coordinates: [circle(8, 52, 1, CIRCLE_VERTICES)] }, {});
  writer.write({ type: 'Polygon', coordinates: [square(20, 10, 1)] }, {});
  writer.close();
  server = await startServer({ dataDir: dir, ogc: { maxPageVertices: MAX_PAGE_VERTICES } });
});

afterAll(async () => {
  await server.close();
  removeTempDirs();
});

const itemsIn = (bbox: string) => get(server, `/ogc/collections/shapes/items?bbox=${bbox}`);

describe('a bbox over records of many vertices', () => {
  it('refuses, naming the limit, a box across the edge of records holding more vertices than a page may', async () => {
    // Between the circles, across the corners of their bounding boxes: it meets neither, but
    // only their 1,202 vertices could tell.
    const { status, body } = await itemsIn('5.8,52.8,7.2,53');
    expect(status).toBe(400);
    expect(body.code).toBeDefined();
    expect(body.description).toMatch(/Parameter 'bbox': the 2 features across the edge of the box hold up to 1202 vertices/);
    expect(body.description).toMatch(/at most 1000 \(ogc\.maxPageVertices\)/);
  });

  it('answers a box that holds the large records whole: their bounding boxes settle them, nothing is decoded', async () => {
    const { status, body } = await itemsIn('3,50,10,54&limit=1');
    expect(status).toBe(200);
    expect(body.numberMatched).toBe(2);
    expect(body.features.map((feature: { id: number }) => feature.id)).toEqual([0]);
  });

  it('tests records across the edge within the budget vertex by vertex', async () => {
    const { status, body } = await itemsIn('20.5,10.5,30,30');
    expect(status).toBe(200);
    expect(body.features.map((feature: { id: number }) => feature.id)).toEqual([2]);
    expect((await itemsIn('21.5,11.5,30,30')).body.features).toEqual([]);
  });
});
