import { join } from 'node:path';
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RD_NEW_PROJ4 } from '../../src/shapefile/crs.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { createShapefileWriter } from '../../scripts/lib/shapefile-writer.ts';
import { writeFixtures } from '../support/fixtures.ts';
import { decodePng, type DecodedPng } from '../support/png.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { child, parseXml } from '../support/xml.ts';
import { isFeatureRed, redCentre } from './pixels.ts';
import { allTypes, CHECKERBOARD_PLUGIN, mapUrl, worldPixel } from './support.ts';

const BLUE = [0, 0, 255, 255];
const WHITE = [255, 255, 255, 255];
const CELL = 64;
const POINTS: [number, number][] = [
  [5.1, 52.1],
  [4.9, 52.4],
];

let server: TestServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = writeFixtures();
  // Metres, but no .prj: nothing says where they are.
  const writer = createShapefileWriter(join(dataDir, 'nowhere'), { shapeType: ShapeType.Point, fields: [] });
  writer.write({ type: 'Point', coordinates: [155000, 463000] }, {});
  writer.close();
  server = await startServer({
    dataDir,
    limits: { maxMapFeatures: 5, maxMapVertices: 100 },
    basemaps: {
      providers: {
        board: { plugin: CHECKERBOARD_PLUGIN, options: { cell: CELL, colour1: '#ffffff', colour2: '#0000ff', attribution: 'Board ©' } },
      },
      types: allTypes('board'),
    },
  });
});
afterAll(() => server.close());

async function mapPng(query: Record<string, string | number>): Promise<DecodedPng> {
  const response = await fetch(mapUrl(server, { format: 'png', ...query }));
  expect(response.status, await response.clone().text()).toBe(200);
  return decodePng(new Uint8Array(await response.arrayBuffer()));
}

async function mapJson(query: Record<string, string | number>) {
  const response = await fetch(mapUrl(server, { format: 'json', ...query }));
  return { status: response.status, body: await response.json() };
}

/** The view's top-left world pixel, by the rule: centred on the extent, corner on a whole pixel. */
function corner(extent: [number, number][], zoom: number, width = 640, height = 480): [number, number] {
  const pixels = extent.map(([lon, lat]) => worldPixel(lon, lat, zoom));
  const xs = pixels.map(([x]) => x);
  const ys = pixels.map(([, y]) => y);
  return [
    Math.round((Math.min(...xs) + Math.max(...xs)) / 2 - width / 2),
    Math.round((Math.min(...ys) + Math.max(...ys)) / 2 - height / 2),
  ];
}

/** The largest zoom at which the points plus 12 px on every side fit 640 x 480. */
function bestZoom(points: [number, number][]): number {
  for (let zoom = 22; zoom > 1; zoom--) {
    const pixels = points.map(([lon, lat]) => worldPixel(lon, lat, zoom));
    const span = (axis: 0 | 1) => Math.max(...pixels.map((p) => p[axis])) - Math.min(...pixels.map((p) => p[axis]));
    if (span(0) + 24 <= 640 && span(1) + 24 <= 480) return zoom;
  }
  return 1;
}

function expectPointsAt(image: DecodedPng, points: [number, number][], zoom: number, [left, top]: [number, number]) {
  for (const [lon, lat] of points) {
    const [x, y] = worldPixel(lon, lat, zoom);
    const centre = redCentre(image, x - left, y - top, 9);
    expect(centre, `point ${lon},${lat} at zoom ${zoom}`).toBeDefined();
    expect(Math.abs(centre![0] - (x - left))).toBeLessThan(0.6);
    expect(Math.abs(centre![1] - (y - top))).toBeLessThan(0.6);
  }
}

describe('the view', () => {
  it('picks the largest zoom at which the features plus the buffer fit, centred on them', async () => {
    const zoom = bestZoom(POINTS);
    expectPointsAt(await mapPng({ file: 'points', fid: '0,1' }), POINTS, zoom, corner(POINTS, zoom));
  });

  it.each([8, 9, 10])('puts lon/lat features where Web Mercator puts them at zoom %i', async (zoom) => {
    expectPointsAt(await mapPng({ file: 'points', fid: '0,1', zoom }), POINTS, zoom, corner(POINTS, zoom));
  });

  it('hands the provider the view: its world-pixel checkerboard lines up with the image', async () => {
    const zoom = 7;
    const [left, top] = corner(POINTS, zoom);
    const image = await mapPng({ file: 'points', fid: '0,1', zoom });
    for (const [x, y] of [[3, 3], [630, 5], [5, 470], [600, 400], [100, 300]]) {
      const parity = (Math.floor((left + x) / CELL) + Math.floor((top + y) / CELL)) % 2;
      expect(image.pixel(x, y), `pixel ${x},${y}`).toEqual(parity === 0 ? WHITE : BLUE);
    }
  });

  it('fits the whole file with useBoundingBox=1 but draws only the selected features', async () => {
    // squares: feature 0 is the left 1000 m square; the file reaches 3000 m to the right.
    const toLonLat = (x: number, y: number) => proj4(RD_NEW_PROJ4, 'WGS84').forward([x, y]) as [number, number];
    const fileCorners = [toLonLat(100_000, 400_000), toLonLat(103_000, 400_000), toLonLat(103_000, 401_000), toLonLat(100_000, 401_000)];
    const zoom = bestZoom(fileCorners);
    const [left, top] = corner(fileCorners, zoom);
    const image = await mapPng({ file: 'squares', fid: 0, useBoundingBox: 1 });
    const square = [toLonLat(100_000, 400_000), toLonLat(101_000, 401_000)].map(([lon, lat]) => worldPixel(lon, lat, zoom));
    const [x0, y0] = [square[0][0] - left, square[0][1] - top];
    const [x1, y1] = [square[1][0] - left, square[1][1] - top];
    // Outline where the square's edges are predicted (RD's grid is turned a little against north), nothing red to its right.
    const middle = Math.round((y0 + y1) / 2);
    const redNear = (x: number) => [-2, -1, 0, 1, 2].some((dx) => isFeatureRed(image.pixel(Math.round(x) + dx, middle)));
    expect(redNear(x0)).toBe(true);
    expect(redNear(x1)).toBe(true);
    let redRightOfSquare = 0;
    for (let x = Math.ceil(x1) + 4; x < 640; x++) if (isFeatureRed(image.pixel(x, middle))) redRightOfSquare++;
    expect(redRightOfSquare).toBe(0);
  });

  it('keeps the centre and takes the zoom given', async () => {
    const auto = await mapPng({ file: 'squares', fid: 0 });
    const zoomed = await mapPng({ file: 'squares', fid: 0, zoom: 10 });
    const redCount = (image: DecodedPng) => {
      let count = 0;
      for (let i = 0; i < image.data.length; i += 4) if (isFeatureRed([image.data[i], image.data[i + 1], image.data[i + 2]])) count++;
      return count;
    };
    // At zoom 10 a 1 km square is about 16 px across; fitted it fills the image.
    expect(redCount(zoomed)).toBeLessThan(redCount(auto) / 4);
    expect(redCentre(zoomed, 320, 240, 20)).toBeDefined();
  });
});

describe('features', () => {
  it('draws every feature when fid is left out', async () => {
    const image = await mapPng({ file: 'points' });
    const zoom = bestZoom(POINTS);
    expectPointsAt(image, POINTS, zoom, corner(POINTS, zoom));
  });

  it('outlines polygons over a 20 % fill of the line colour', async () => {
    const image = await mapPng({ file: 'squares', fid: 0, lineColor: '00FF00', lineWidth: 4 });
    // Inside the square: 20 % green over the white or blue board.
    const [r, g, b] = image.pixel(320, 240);
    const board = b > 200 && r > 200 ? WHITE : BLUE;
    expect(Math.abs(g - (0.2 * 255 + 0.8 * board[1]))).toBeLessThan(3);
    expect(Math.abs(r - 0.8 * board[0])).toBeLessThan(3);
  });

  it('refuses a map past the configured number of features', async () => {
    const { status, body } = await mapJson({ file: 'squares' });
    // 5 features with geometry (within the limit of 5), but 131 vertices (over 100).
    expect(status).toBe(400);
    expect(body.ErrorDetails).toMatch(/^The map's features hold up to 131 vertices; at most 100 \(limits\.maxMapVertices\)/);
    const many = await mapJson({ file: 'squares', fid: '0,0,0,0,0,0' });
    expect(many.status).toBe(400);
    expect(many.body.ErrorDetails).toMatch(/^The map would draw 6 features; at most 5 \(limits\.maxMapFeatures\)/);
  });

  it('answers hot spots in the map pixels, ItemId 1 and FeatureId -1', async () => {
    const { status, body } = await mapJson({ file: 'points', fid: '1', zoom: 8, includeHotSpots: 1 });
    expect(status).toBe(200);
    const [image] = body.Resource.ShapefileFeatureImages;
    expect([image.ItemId, image.FeatureId]).toEqual([1, -1]);
    expect(image.FeatureHotSpots).toEqual([{ FeatureId: 1, Fid: '1', Shape: 'circle', Coords: '320,240,6' }]);
  });

  it('answers XML with the attribution in the Copyright', async () => {
    const response = await fetch(mapUrl(server, { file: 'points', fid: 0 }));
    expect(response.status).toBe(200);
    const root = parseXml(await response.text());
    expect(child(root, 'Copyright')!.text).toMatch(/ Board ©$/);
  });

  it('answers 400 for a shapefile whose coordinate system is unknown', async () => {
    const { status, body } = await mapJson({ file: 'nowhere' });
    expect(status).toBe(400);
    expect(body.ErrorDetails).toMatch(/Shapefile 'nowhere' cannot be drawn on a map: its coordinate reference system is unknown/);
  });
});

describe('parameters', () => {
  it.each([
    ['zoom', '0', "Parameter 'zoom' must be an integer from 1 to 22; got '0'."],
    ['zoom', '23', "Parameter 'zoom' must be an integer from 1 to 22; got '23'."],
    ['zoom', '2.5', "Parameter 'zoom' must be an integer from 1 to 22; got '2.5'."],
    ['zoom', 'far', "Parameter 'zoom' must be an integer from 1 to 22; got 'far'."],
    ['type', 'Satellite', "Parameter 'type' must be one of Road, Aerial, AerialWithLabels; got 'Satellite'."],
    ['culture', 'French', "Parameter 'culture' must be one of English, Dutch; got 'French'."],
    ['useBoundingBox', '2', "Parameter 'useBoundingBox' must be '0' or '1'; got '2'."],
    ['lineWidth', '101', "Parameter 'lineWidth' must be an integer from 0 to 100; got '101'."],
  ])('%s=%s is a 400 naming it', async (name, value, message) => {
    const { status, body } = await mapJson({ file: 'points', [name]: value });
    expect(status).toBe(400);
    expect(body.ErrorDetails).toBe(message);
  });

  it('takes enumerations in any case', async () => {
    const { status } = await mapJson({ file: 'points', fid: 0, type: 'aerialwithlabels', culture: 'DUTCH' });
    expect(status).toBe(200);
  });
});
