import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtures } from '../support/fixtures.ts';
import { decodePng } from '../support/png.ts';
import { imagesUrl, startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { child, parseXml } from '../support/xml.ts';

const NAMESPACE = 'http://schemas.microsoft.com/search/local/ws/rest/v1';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ dataDir: writeFixtures() });
});
afterAll(() => server.close());

async function png(query: Record<string, string | number>) {
  const response = await fetch(imagesUrl(server, { format: 'png', ...query }));
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/png');
  return decodePng(new Uint8Array(await response.arrayBuffer()));
}

async function json(query: Record<string, string | number>) {
  const response = await fetch(imagesUrl(server, { format: 'json', ...query }));
  return { status: response.status, body: await response.json(), headers: response.headers };
}

const LIGHT_GREY = [211, 211, 211, 255];
const TRANSPARENT = [0, 0, 0, 0];

describe('drawing with the default style', () => {
  it('fits a square into the image less the buffer, centred, filled and outlined', async () => {
    const image = await png({ file: 'squares', fid: 0 });
    expect([image.width, image.height]).toEqual([640, 480]);
    // 1000 m fitted into 480 - 2*12 px: 456 px, centred: x 92..548, y 12..468.
    expect(image.pixel(320, 240)).toEqual(LIGHT_GREY);
    expect(image.pixel(100, 20)).toEqual(LIGHT_GREY);
    expect(image.pixel(80, 240)).toEqual(TRANSPARENT);
    expect(image.pixel(560, 240)).toEqual(TRANSPARENT);
    expect(image.pixel(320, 5)).toEqual(TRANSPARENT);
    const [r, g, b, a] = image.pixel(92, 240);
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(60);
    expect(b).toBeLessThan(60);
    expect(a).toBeGreaterThan(100);
  });

  it('leaves holes transparent', async () => {
    const image = await png({ file: 'squares', fid: 1 });
    expect(image.pixel(320, 240)).toEqual(TRANSPARENT);
    expect(image.pixel(200, 240)).toEqual(LIGHT_GREY);
  });

  it('draws one child of a multi-part feature, fitted to that child alone', async () => {
    const whole = await png({ file: 'squares', fid: 2 });
    // Two squares side by side (3000 x 1000 m) fit the width: 616 px / 3000 m.
    expect(whole.pixel(60, 240)).toEqual(LIGHT_GREY);
    expect(whole.pixel(320, 240)).toEqual(TRANSPARENT);
    const right = await png({ file: 'squares', fid: '2.1' });
    expect(right.pixel(320, 240)).toEqual(LIGHT_GREY);
    expect(right.pixel(60, 240)).toEqual(TRANSPARENT);
  });

  it('fits a wide feature to the width and centres it vertically', async () => {
    const image = await png({ file: 'squares', fid: 4 });
    // 2000 x 500 m into 616 x 456 px: width-bound, 154 px tall, y 163..317.
    expect(image.pixel(320, 240)).toEqual(LIGHT_GREY);
    expect(image.pixel(320, 150)).toEqual(TRANSPARENT);
    expect(image.pixel(320, 330)).toEqual(TRANSPARENT);
    expect(image.pixel(20, 240)).toEqual(LIGHT_GREY);
  });

  it('strokes lines without filling them', async () => {
    // Two 1000 m lines 500 m apart, fitted to the width (616 px / 1000 m): y = 240 -+ 154.
    const image = await png({ file: 'lines', fid: 1 });
    for (const y of [86, 394]) {
      const [r, , , a] = image.pixel(320, y);
      expect(r).toBeGreaterThan(200);
      expect(a).toBeGreaterThan(100);
    }
    expect(image.pixel(320, 240)).toEqual(TRANSPARENT);
  });

  it('draws a point as a round symbol in the centre', async () => {
    const image = await png({ file: 'points', fid: 0 });
    expect(image.pixel(320, 240)).toEqual(LIGHT_GREY);
    expect(image.pixel(340, 240)).toEqual(TRANSPARENT);
  });

  it('draws geographic data in Web Mercator: a 10 degree square near 65N is taller than wide', async () => {
    const image = await png({ file: 'arctic', fid: 0, size: '600,600', buffer: 0 });
    expect(image.pixel(300, 2)).toEqual(LIGHT_GREY);
    expect(image.pixel(300, 597)).toEqual(LIGHT_GREY);
    // Width is about 10 / (ln tan(35+45) - ln tan(30+45)) of ... well under the height.
    expect(image.pixel(100, 300)).toEqual(TRANSPARENT);
    expect(image.pixel(500, 300)).toEqual(TRANSPARENT);
  });

  it('honours size and buffer', async () => {
    const image = await png({ file: 'squares', fid: 0, size: '100,200', buffer: 0 });
    expect([image.width, image.height]).toEqual([200, 100]);
    expect(image.pixel(55, 50)).toEqual(LIGHT_GREY);
    expect(image.pixel(45, 50)).toEqual(TRANSPARENT);
  });
});

describe('style parameters', () => {
  it('takes colours in every accepted form', async () => {
    for (const fillColor of ['#0000FF', '0000FF', '#00F', '00f', 'blue', 'BLUE', ' Blue ', '#FF0000FF', 'ff0000ff']) {
      const response = await fetch(
        server.url(
          `/REST/v1/shapefiles/images?file=squares&fid=0&format=png&key=${TEST_KEY}&fillColor=${encodeURIComponent(fillColor)}`,
        ),
      );
      expect(response.status, fillColor).toBe(200);
      const image = decodePng(new Uint8Array(await response.arrayBuffer()));
      expect(image.pixel(320, 240), fillColor).toEqual([0, 0, 255, 255]);
    }
  });

  it('draws alpha-first colours translucent', async () => {
    const image = await png({ file: 'squares', fid: 0, fillColor: '#800000FF' });
    const [r, g, b, a] = image.pixel(320, 240);
    expect([r, g, b]).toEqual([0, 0, 255]);
    expect(a).toBeGreaterThan(120);
    expect(a).toBeLessThan(136);
  });

  it('sets the outline colour and width; lineWidth 0 draws no outline', async () => {
    const thick = await png({ file: 'squares', fid: 0, lineColor: 'lime', lineWidth: 10 });
    expect(thick.pixel(88, 240)).toEqual([0, 255, 0, 255]);
    const none = await png({ file: 'squares', fid: 0, lineWidth: 0 });
    expect(none.pixel(89, 240)).toEqual(TRANSPARENT);
    expect(none.pixel(93, 240)).toEqual(LIGHT_GREY);
  });

  it('fills the background with bgColor1', async () => {
    const image = await png({ file: 'squares', fid: 0, bgColor1: 'white' });
    expect(image.pixel(5, 5)).toEqual([255, 255, 255, 255]);
  });

  it('draws a gradient from bgColor1 to bgColor2 along bgAngle', async () => {
    const across = await png({ file: 'squares', fid: 0, bgColor1: 'black', bgColor2: 'white' });
    expect(across.pixel(2, 240)[0]).toBeLessThan(30);
    expect(across.pixel(637, 240)[0]).toBeGreaterThan(225);
    const down = await png({ file: 'squares', fid: 0, bgColor1: 'black', bgColor2: 'white', bgAngle: 90 });
    expect(down.pixel(40, 2)[0]).toBeLessThan(30);
    expect(down.pixel(40, 477)[0]).toBeGreaterThan(225);
    const back = await png({ file: 'squares', fid: 0, bgColor1: 'black', bgColor2: 'white', bgAngle: 180 });
    expect(back.pixel(2, 240)[0]).toBeGreaterThan(225);
  });

  it('bgColor2 alone fades from transparent', async () => {
    const image = await png({ file: 'squares', fid: 0, bgColor2: 'white' });
    expect(image.pixel(1, 240)[3]).toBeLessThan(20);
    expect(image.pixel(638, 240)[3]).toBeGreaterThan(235);
  });

  it('draws a grid only when grid=1, in gridColor at gridSpace', async () => {
    const plain = await png({ file: 'squares', fid: 0, gridColor: 'blue', gridSpace: 10 });
    expect(plain.pixel(40, 40)).toEqual(TRANSPARENT);
    const grid = await png({ file: 'squares', fid: 0, grid: 1, gridColor: 'blue', gridSpace: 10 });
    const onLines = [0, 10, 20, 30, 40, 50].filter((x) => grid.pixel(x, 35)[2] > 200 && grid.pixel(x, 35)[3] > 200);
    const between = [5, 15, 25, 35, 45].filter((x) => grid.pixel(x, 35)[3] > 0);
    expect(onLines.length).toBeGreaterThanOrEqual(5);
    expect(between).toEqual([]);
  });
});

describe('themes', () => {
  const THEMES = ['Movie', 'MovieGrid', 'Ocean', 'OceanGrid', 'ShapeServerBlue', 'Sky', 'SkyGrid', 'Steel', 'SteelGrid', 'Tech', 'TechGrid'];

  it('ships the eleven themes, each drawing a different image', async () => {
    const digests = new Set<string>();
    for (const theme of THEMES) {
      const response = await fetch(imagesUrl(server, { file: 'squares', fid: 1, format: 'png', theme: theme.toLowerCase() }));
      expect(response.status, theme).toBe(200);
      digests.add(createHash('sha256').update(new Uint8Array(await response.arrayBuffer())).digest('hex'));
    }
    expect(digests.size).toBe(THEMES.length);
  });

  it('ignores style parameters, valid or not, when a theme is given', async () => {
    const themed = await png({ file: 'squares', fid: 0, theme: 'Ocean' });
    const withStyle = await png({ file: 'squares', fid: 0, theme: 'Ocean', fillColor: 'not-a-colour', lineWidth: -5 });
    expect(withStyle.pixel(320, 240)).toEqual(themed.pixel(320, 240));
    expect(themed.pixel(320, 240)).not.toEqual(LIGHT_GREY);
  });
});

describe('the XML envelope', () => {
  it('has the interface fields in order, in the schema namespace', async () => {
    const response = await fetch(imagesUrl(server, { file: 'SQUARES', fid: '0, 2.1' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/xml/);
    const text = await response.text();
    expect(text.startsWith('<?xml')).toBe(true);
    expect(text).not.toContain('DOCTYPE');
    const root = parseXml(text);
    expect(root.name).toBe('Response');
    expect(root.namespace).toBe(NAMESPACE);
    expect(root.attributes['xmlns:i']).toBe(XSI);
    expect(root.children.map((c) => c.name)).toEqual([
      'Copyright', 'StatusCode', 'StatusDescription', 'ErrorDetails', 'TraceId', 'Resource',
    ]);
    expect(root.children.every((c) => c.namespace === NAMESPACE)).toBe(true);
    expect(child(root, 'StatusCode')!.text).toBe('200');
    expect(child(root, 'StatusDescription')!.text).toBe('OK');
    expect(child(root, 'ErrorDetails')!.text).toBe('');
    const traceId = child(root, 'TraceId')!.text;
    expect(traceId).toMatch(/^[^/]+\/\d{8}T\d{6}Z\/[0-9a-f]+$/);
    expect(response.headers.get('x-trace-id')).toBe(traceId);

    const resource = child(root, 'Resource')!;
    expect(resource.attributes['i:type']).toBe('ShapefileFeatureImageCollection');
    expect(resource.children.map((c) => c.name)).toEqual(['ItemId', 'Shapefile', 'ShapefileFeatureImages']);
    expect(child(resource, 'ItemId')!.text).toBe('1');
    expect(child(resource, 'Shapefile')!.text).toBe('squares');
    const images = child(resource, 'ShapefileFeatureImages')!.children;
    expect(images.map((image) => image.name)).toEqual(['ShapefileFeatureImage', 'ShapefileFeatureImage']);
    expect(images[0].children.map((c) => c.name)).toEqual(['ItemId', 'FeatureId', 'FeatureImage', 'FeatureHotSpots']);
    expect(images.map((image) => [child(image, 'ItemId')!.text, child(image, 'FeatureId')!.text])).toEqual([
      ['1', '0'],
      ['2', '2'],
    ]);
    expect(child(images[0], 'FeatureHotSpots')!.attributes['i:nil']).toBe('true');
    const picture = decodePng(Buffer.from(child(images[1], 'FeatureImage')!.text, 'base64'));
    expect(picture.pixel(320, 240)).toEqual(LIGHT_GREY);
  });

  it('lists hot spots as image-map areas', async () => {
    const response = await fetch(imagesUrl(server, { file: 'squares', fid: 0, includeHotSpots: 1 }));
    const root = parseXml(await response.text());
    const spots = child(child(child(root, 'Resource')!, 'ShapefileFeatureImages')!.children[0], 'FeatureHotSpots')!;
    expect(spots.children.map((c) => c.name)).toEqual(['HotSpot']);
    const spot = spots.children[0];
    expect(spot.children.map((c) => c.name)).toEqual(['FeatureId', 'Fid', 'Shape', 'Coords']);
    expect(child(spot, 'Shape')!.text).toBe('poly');
    const coords = child(spot, 'Coords')!.text.split(',').map(Number);
    expect(coords.every(Number.isInteger)).toBe(true);
    const xs = coords.filter((_, i) => i % 2 === 0);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(90);
    expect(Math.max(...xs)).toBeLessThanOrEqual(550);
  });
});

describe('the JSON envelope', () => {
  it('has the fields in order with __type first in Resource and bytes as integers', async () => {
    const { status, body, headers } = await json({ file: 'squares', fid: '2.1,0,2.1', includeHotSpots: 1 });
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(body)).toEqual(['Copyright', 'StatusCode', 'StatusDescription', 'ErrorDetails', 'TraceId', 'Resource']);
    expect(body.StatusCode).toBe(200);
    expect(body.ErrorDetails).toBe('');
    expect(Object.keys(body.Resource)).toEqual(['__type', 'ItemId', 'Shapefile', 'ShapefileFeatureImages']);
    expect(body.Resource.__type).toBe(`ShapefileFeatureImageCollection:${NAMESPACE}`);
    const images = body.Resource.ShapefileFeatureImages;
    expect(images.map((image: { ItemId: number; FeatureId: number }) => [image.ItemId, image.FeatureId])).toEqual([
      [1, 2],
      [2, 0],
      [3, 2],
    ]);
    expect(images[0].FeatureHotSpots[0]).toMatchObject({ FeatureId: 2, Fid: '2.1', Shape: 'poly' });
    const picture = decodePng(Uint8Array.from(images[1].FeatureImage as number[]));
    expect(picture.pixel(320, 240)).toEqual(LIGHT_GREY);
  });

  it('makes one image of all features with singleImage=1: ItemId 1, FeatureId -1', async () => {
    const { body } = await json({ file: 'squares', fid: '0,2.1', singleImage: 1 });
    const images = body.Resource.ShapefileFeatureImages;
    expect(images).toHaveLength(1);
    expect([images[0].ItemId, images[0].FeatureId]).toEqual([1, -1]);
    expect(images[0].FeatureHotSpots).toBeNull();
  });
});

describe('the request line', () => {
  it('takes parameter names, values and the path in any case', async () => {
    const response = await fetch(
      server.url(`/rest/V1/Shapefiles/IMAGES?FILE=Squares&FID=0&Format=JSON&LineColor=Blue&Key=${TEST_KEY}`),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.Resource.Shapefile).toBe('squares');
  });

  it('ignores unknown parameters and exact repeats: the answer is the one without them', async () => {
    const plain = await fetch(imagesUrl(server, { file: 'squares', fid: 0, format: 'json' }));
    const response = await fetch(imagesUrl(server, { file: 'squares', fid: 0, _: 12345, format: 'json' }) + '&fid=0');
    expect(response.status).toBe(200);
    const [withExtras, without] = [await response.json(), await plain.json()];
    // A parameter repeated with the same value counts once: one image, of feature 0, the same answer as without the extras.
    expect(withExtras.Resource.ShapefileFeatureImages.map((image: { FeatureId: number }) => image.FeatureId)).toEqual([0]);
    expect(withExtras.Resource).toEqual(without.Resource);
    expect(response.headers.get('etag')).toBe(plain.headers.get('etag'));
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await fetch(imagesUrl(server, { file: 'squares', fid: 0 }), { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('reduces coordinates with reduceTol', async () => {
    const exact = await png({ file: 'squares', fid: 5, lineWidth: 0 });
    const reduced = await png({ file: 'squares', fid: 5, lineWidth: 0, reduceTol: 400 });
    // The circle's edge at 45 degrees is cut off once it is reduced to a few vertices.
    const [x, y] = [Math.round(320 + 0.68 * 228), Math.round(240 - 0.68 * 228)];
    expect(exact.pixel(x, y)).toEqual(LIGHT_GREY);
    expect(reduced.pixel(x, y)).toEqual(TRANSPARENT);
  });

  it('serves noCache=1 the same image', async () => {
    const cached = await png({ file: 'squares', fid: 1 });
    const fresh = await png({ file: 'squares', fid: 1, noCache: 1 });
    expect(fresh.pixel(200, 240)).toEqual(cached.pixel(200, 240));
  });
});
