import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShapefileWriter } from '../../scripts/lib/shapefile-writer.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { isBasemapUnavailable, type BasemapProvider, type MapView } from '../../src/sdk/plugin.ts';
import wms from '../../plugins/wms/index.ts';
import { serviceExceptionText } from '../../plugins/wms/service-exception.ts';
import { testContext, viewCentredOn } from '../support/basemap.ts';
import { WGS84_PRJ, writeFixtures } from '../support/fixtures.ts';
import { decodePng, type DecodedPng } from '../support/png.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { startWmsServer, type WmsServer } from '../support/wms-server.ts';
import { redCentre } from '../map/pixels.ts';
import { mapUrl, worldPixel } from '../map/support.ts';

/**
 * The WMS layer: four 5° quadrants around CENTRE, one colour each, over lon 0–10, lat
 * 47–57; white or transparent around them. No red in them (the features are red), so a
 * feature's edge blends alike into each.
 */
const CENTRE = { lon: 5.1, lat: 52.1 };
const NW: Rgb = [0, 0, 255];
const NE: Rgb = [0, 255, 0];
const SW: Rgb = [0, 0, 0];
const SE: Rgb = [0, 255, 255];
const WHITE: Rgb = [255, 255, 255];

type Rgb = [number, number, number];

function writeQuadrants(dir: string): void {
  const writer = createShapefileWriter(join(dir, 'quadrants'), {
    shapeType: ShapeType.Polygon,
    fields: [{ name: 'COLOUR', type: 'C', length: 7 }],
    prj: WGS84_PRJ,
  });
  const hex = (rgb: Rgb) => `#${rgb.map((value) => value.toString(16).padStart(2, '0')).join('')}`;
  const box = (west: number, south: number, east: number, north: number) => ({
    type: 'Polygon' as const,
    coordinates: [[[west, south], [west, north], [east, north], [east, south], [west, south]]],
  });
  const { lon, lat } = CENTRE;
  writer.write(box(0, lat, lon, 57), { COLOUR: hex(NW) });
  writer.write(box(lon, lat, 10, 57), { COLOUR: hex(NE) });
  writer.write(box(0, 47, lon, lat), { COLOUR: hex(SW) });
  writer.write(box(lon, 47, 10, lat), { COLOUR: hex(SE) });
  writer.close();
  // PROJECTION AUTO: MapServer takes the layer's CRS from the .prj.
  writeFileSync(
    join(dir, 'quadrants.map'),
    `MAP
  NAME "quadrants"
  EXTENT -20037508.34 -20037508.34 20037508.34 20037508.34
  SIZE 256 256
  MAXSIZE 4096
  UNITS METERS
  SHAPEPATH "${dir}"
  IMAGECOLOR 255 255 255
  PROJECTION "init=epsg:3857" END
  WEB
    METADATA
      "wms_title" "shapeshot test"
      "wms_srs" "EPSG:3857 EPSG:4326"
      "ows_enable_request" "*"
    END
  END
  LAYER
    NAME "quadrants"
    TYPE POLYGON
    STATUS ON
    DATA "quadrants"
    PROJECTION AUTO END
    METADATA "wms_title" "quadrants" END
    CLASS STYLE COLOR [COLOUR] END END
  END
END
`,
  );
}

let wmsServer: WmsServer;
let server: TestServer;

beforeAll(async () => {
  const wmsDir = makeTempDir();
  writeQuadrants(wmsDir);
  wmsServer = await startWmsServer(join(wmsDir, 'quadrants.map'));
  const provider = (options: Record<string, unknown>) => ({ plugin: 'wms', options: { url: wmsServer.url, layers: 'quadrants', ...options } });
  server = await startServer({
    dataDir: writeFixtures(makeTempDir()),
    basemaps: {
      providers: {
        quadrants: provider({ attribution: 'WMS © Test' }),
        broken: provider({ layers: 'nope' }),
        old: provider({ version: '1.1.1', attribution: 'Old WMS' }),
      },
      types: { Road: 'quadrants', Aerial: 'broken', AerialWithLabels: 'old' },
    },
  });
});

afterAll(async () => {
  await server?.close();
  await wmsServer?.close();
  removeTempDirs();
});

function create(options: Record<string, unknown> = {}): BasemapProvider {
  return wms.create({ url: wmsServer.url, layers: 'quadrants', ...options }, testContext('wms')) as BasemapProvider;
}

function render(provider: BasemapProvider, view: MapView, signal = new AbortController().signal) {
  return provider.render({ view, type: 'Road', culture: 'English', signal });
}

/** The view of `width` × `height` CSS pixels centred on a lon/lat, at `devicePixelRatio`. */
function viewOn(lon: number, lat: number, zoom: number, width: number, height: number, devicePixelRatio = 1): MapView {
  return { ...viewCentredOn(lon, lat, zoom, width, height), devicePixelRatio };
}

/** The one image a render placed, decoded. */
async function renderImage(provider: BasemapProvider, view: MapView): Promise<DecodedPng> {
  const basemap = await render(provider, view);
  expect(basemap.below.images).toHaveLength(1);
  const [image] = basemap.below.images!;
  expect(image).toMatchObject({ x: 0, y: 0, width: view.width, height: view.height, mime: 'image/png' });
  return decodePng(image.bytes);
}

/** Where CENTRE is on the view's image, in CSS pixels. */
function centreOn(view: MapView): [number, number] {
  const [x, y] = worldPixel(CENTRE.lon, CENTRE.lat, view.zoom);
  return [x - view.left, y - view.top];
}

const rgb = (image: DecodedPng, x: number, y: number) => image.pixel(Math.floor(x), Math.floor(y)).slice(0, 3) as Rgb;

/**
 * Where the colour changes from `first` to `second` along a run of pixels that starts at
 * image pixel `start`: the share of `first` in each pixel (polygon edges are antialiased)
 * summed, to a fraction of a pixel.
 */
function colourEdge(run: Rgb[], start: number, first: Rgb, second: Rgb): number {
  const step = first.map((value, i) => value - second[i]);
  const length = step.reduce((sum, value) => sum + value * value, 0);
  const share = (pixel: Rgb) => pixel.reduce((sum, value, i) => sum + (value - second[i]) * step[i], 0) / length;
  return start + run.reduce((sum, pixel) => sum + share(pixel), 0);
}

/**
 * The image pixels (at `scale` per CSS pixel) where the meridian and the parallel through
 * CENTRE are drawn, measured `offset` CSS pixels into the north and east quadrants.
 */
function quadrantEdges(image: DecodedPng, [cx, cy]: [number, number], offset: number, scale = 1): [number, number] {
  const from = (centre: number) => Math.floor((centre - offset / 2) * scale);
  const pixels = Array.from({ length: offset * scale }, (_, i) => i);
  const x0 = from(cx);
  const y0 = from(cy);
  const row = pixels.map((i) => rgb(image, x0 + i, (cy - offset) * scale));
  const column = pixels.map((i) => rgb(image, (cx + offset) * scale, y0 + i));
  return [colourEdge(row, x0, NW, NE) / scale, colourEdge(column, y0, NE, SE) / scale];
}

/** The image's colours just off CENTRE, `offset` pixels into each quadrant, with `scale` image pixels per CSS pixel. */
function quadrantColours(image: DecodedPng, [cx, cy]: [number, number], offset: number, scale = 1) {
  const at = (dx: number, dy: number) => rgb(image, (cx + dx) * scale, (cy + dy) * scale);
  return { nw: at(-offset, -offset), ne: at(offset, -offset), sw: at(-offset, offset), se: at(offset, offset) };
}

describe('wms basemap from MapServer', () => {
  it('draws the GetMap image over the whole view, the quadrant corner where Web Mercator puts it', async () => {
    const view = viewOn(CENTRE.lon, CENTRE.lat, 7, 300, 200);
    const image = await renderImage(create(), view);
    expect([image.width, image.height]).toEqual([300, 200]);
    const [cx, cy] = centreOn(view);
    expect(quadrantColours(image, [cx, cy], 20)).toEqual({ nw: NW, ne: NE, sw: SW, se: SE });
    // MapServer 8 draws edges 0.5–0.8 image pixels up and left of where the BBOX puts them;
    // the BBOX itself is checked exactly in the next tests.
    const [x, y] = quadrantEdges(image, [cx, cy], 20);
    expect(Math.abs(x - cx)).toBeLessThan(1);
    expect(Math.abs(y - cy)).toBeLessThan(1);
  });

  it('asks for devicePixelRatio times the pixels, placed over the same CSS pixels', async () => {
    const view = viewOn(CENTRE.lon, CENTRE.lat, 7, 300, 200, 2);
    wmsServer.requests.length = 0;
    const image = await renderImage(create(), view);
    expect(wmsServer.requests.map(({ query }) => [query.get('WIDTH'), query.get('HEIGHT')])).toEqual([['600', '400']]);
    expect([image.width, image.height]).toEqual([600, 400]);
    const [cx, cy] = centreOn(view);
    expect(quadrantColours(image, [cx, cy], 20, 2)).toEqual({ nw: NW, ne: NE, sw: SW, se: SE });
    // Within a pixel of the 2× image, half a CSS pixel.
    const [x, y] = quadrantEdges(image, [cx, cy], 20, 2);
    expect(Math.abs(x - cx)).toBeLessThan(0.5);
    expect(Math.abs(y - cy)).toBeLessThan(0.5);
  });

  it('sends the WMS 1.3.0 GetMap parameters, the base URL’s own and the vendor ones, with the User-Agent', async () => {
    const view = viewOn(CENTRE.lon, CENTRE.lat, 6, 256, 128);
    wmsServer.requests.length = 0;
    // The base URL's own LAYERS (in another case) gives way to the option; its other parameters stay.
    const url = `${wmsServer.url}?token=abc&layers=other`;
    await render(create({ url, styles: '', params: { DPI: '96' } }), view);
    const [{ query, headers }] = wmsServer.requests;
    const world = 256 * 2 ** 6;
    const metres = (pixel: number) => (pixel / world) * 2 * Math.PI * 6378137 - Math.PI * 6378137;
    const bbox = query.get('BBOX')!.split(',').map(Number);
    const expected = [metres(view.left), -metres(view.top + 128), metres(view.left + 256), -metres(view.top)];
    bbox.forEach((value, i) => expect(value).toBeCloseTo(expected[i], 6));
    expect(Object.fromEntries([...query].filter(([key]) => key !== 'BBOX'))).toEqual({
      token: 'abc',
      SERVICE: 'WMS',
      VERSION: '1.3.0',
      REQUEST: 'GetMap',
      LAYERS: 'quadrants',
      STYLES: '',
      CRS: 'EPSG:3857',
      FORMAT: 'image/png',
      TRANSPARENT: 'FALSE',
      EXCEPTIONS: 'XML',
      WIDTH: '256',
      HEIGHT: '128',
      DPI: '96',
    });
    expect(headers['user-agent']).toBe('shapeshot-test');
  });

  it('speaks WMS 1.1.1 (SRS=EPSG:3857, same axis order) and JPEG', async () => {
    const view = viewOn(CENTRE.lon, CENTRE.lat, 7, 200, 200);
    wmsServer.requests.length = 0;
    const basemap = await render(create({ version: '1.1.1', format: 'image/jpeg' }), view);
    const [{ query }] = wmsServer.requests;
    expect([query.get('VERSION'), query.get('SRS'), query.get('CRS'), query.get('FORMAT')]).toEqual(['1.1.1', 'EPSG:3857', null, 'image/jpeg']);
    expect(basemap.below.images?.[0].mime).toBe('image/jpeg');
  });

  it('asks for a transparent background when told to', async () => {
    // The data ends at lon 10: the right half of this view has none.
    const view = viewOn(10, CENTRE.lat + 2, 7, 200, 100);
    const opaque = await renderImage(create(), view);
    expect(opaque.pixel(190, 50)).toEqual([...WHITE, 255]);
    expect(opaque.pixel(10, 50)).toEqual([...NE, 255]);
    const clear = await renderImage(create({ transparent: true }), view);
    expect(clear.pixel(190, 50)[3]).toBe(0);
    expect(clear.pixel(10, 50)).toEqual([...NE, 255]);
  });

  it('keeps GetMap answers by URL, unless its cache is 0 bytes', async () => {
    const view = viewOn(CENTRE.lon, CENTRE.lat, 5, 100, 100);
    for (const [cacheBytes, requests] of [[1_000_000, 1], [0, 2]]) {
      const provider = create({ cacheBytes });
      wmsServer.requests.length = 0;
      await render(provider, view);
      await render(provider, view);
      expect(wmsServer.requests).toHaveLength(requests);
    }
  });

  it('sends one GetMap for maps that want the same image at the same time, even without a cache', async () => {
    const view = viewOn(CENTRE.lon, CENTRE.lat, 6, 100, 100);
    const provider = create({ cacheBytes: 0 });
    wmsServer.requests.length = 0;
    const basemaps = await Promise.all([render(provider, view), render(provider, view), render(provider, view)]);
    expect(wmsServer.requests).toHaveLength(1);
    expect(new Set(basemaps.map(({ below }) => below.images![0].bytes))).toHaveProperty('size', 1);
  });

  it('lets a map join a GetMap that a newer map started after an earlier one for the same image was stopped', async () => {
    const view = viewOn(CENTRE.lon, CENTRE.lat, 7, 100, 100);
    const provider = create({ cacheBytes: 0 });
    wmsServer.requests.length = 0;
    wmsServer.holding = true;
    try {
      // The first map gives up while its GetMap is being drawn: that request is stopped.
      const first = new AbortController();
      const firstAsked = wmsServer.nextRequest();
      const stopped = render(provider, view, first.signal).catch(() => undefined);
      await firstAsked;
      first.abort();
      await stopped;
      // A second map asks anew; once its request is at the server, a third joins it.
      const secondAsked = wmsServer.nextRequest();
      const second = render(provider, view);
      await secondAsked;
      const third = render(provider, view);
      wmsServer.release();
      await Promise.all([second, third]);
    } finally {
      wmsServer.release();
    }
    expect(wmsServer.requests).toHaveLength(2);
  });

  it('takes its attribution from the option, or else names the server host', async () => {
    const view = viewOn(CENTRE.lon, CENTRE.lat, 5, 64, 64);
    expect((await render(create({ attribution: '© Quadrants' }), view)).attribution).toBe('© Quadrants');
    expect((await render(create(), view)).attribution).toBe('127.0.0.1');
  });
});

describe('wms basemap failures', () => {
  const view = viewOn(CENTRE.lon, CENTRE.lat, 4, 64, 64);

  /** The reason render gives for the basemap being unavailable. */
  async function failure(provider: BasemapProvider, signal?: AbortSignal): Promise<string> {
    const error = await render(provider, view, signal).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(isBasemapUnavailable(error), String(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toMatch(/^Basemap provider 'wms' is unavailable: /);
    return message.replace(/^Basemap provider 'wms' is unavailable: /, '');
  }

  it.each(['1.3.0', '1.1.1'])('passes on the text of a WMS %s ServiceException', async (version) => {
    const reason = await failure(create({ layers: 'nope', version }));
    expect(reason).toMatch(/^the WMS server reported an exception: msWMSLoadGetMapParams\(\): WMS server error\. Invalid layer\(s\) given/);
    expect(reason.replace('the WMS server reported an exception: ', '').length).toBeLessThanOrEqual(200);
  });

  it('says when the server cannot be reached, answers an HTTP error or sends no image', async () => {
    expect(await failure(create({ url: 'http://127.0.0.1:1/wms' }))).toMatch(/^the WMS server cannot be reached \(/);
    expect(await failure(create({ url: wmsServer.url.replace(/wms$/, 'missing') }))).toBe('the WMS server answered HTTP 404 to GetMap.');
    expect(await failure(create({ url: wmsServer.url.replace(/wms$/, 'html') }))).toBe(
      'the WMS server answered GetMap with text/html, not a PNG or JPEG image.',
    );
  });

  it('gives up after timeoutMs, and when the map’s signal fires', async () => {
    // The server answers only when released: too slow for any timeout, on any machine.
    wmsServer.holding = true;
    try {
      expect(await failure(create({ timeoutMs: 100 }))).toBe('the WMS server did not answer within 100 ms.');
      const controller = new AbortController();
      const drawing = wmsServer.nextRequest();
      const failed = failure(create(), controller.signal);
      await drawing;
      controller.abort();
      expect(await failed).toBe('the map ran out of time while the WMS server was drawing it.');
      expect(await failure(create(), AbortSignal.abort())).toBe('the map ran out of time.');
    } finally {
      wmsServer.release();
    }
  });

  it.each([
    [{ url: undefined }, /^option 'url' is required$/],
    [{ url: 'ftp://127.0.0.1/wms' }, /^option 'url' must be an http\(s\) URL$/],
    [{ layers: undefined }, /^option 'layers' /],
    [{ layers: '' }, /^option 'layers' /],
    [{ format: 'image/gif' }, /^option 'format' /],
    [{ version: '1.0.0' }, /^option 'version' /],
    [{ transparent: 'yes' }, /^option 'transparent' /],
    [{ transparent: true, format: 'image/jpeg' }, /^option 'transparent' needs format image\/png/],
    [{ timeoutMs: 0 }, /^option 'timeoutMs' /],
    [{ params: { DPI: 96 } }, /^option 'params\.DPI' /],
    [{ params: { bbox: '0,0,1,1' } }, /^option 'params\.bbox' is not allowed: the plugin sets BBOX itself\.$/],
    [{ layer: 'quadrants' }, /^unknown option 'layer' \(known: url, layers, /],
  ])('refuses bad options at creation, naming the option: %j', (options, message) => {
    expect(() => create(options)).toThrow(message);
  });
});

describe('service exception text', () => {
  it('reads every exception, CDATA and entities, OWS reports and codes, and cuts it to 200 characters', () => {
    const report = (body: string) => `<?xml version="1.0"?><ServiceExceptionReport version="1.3.0">${body}</ServiceExceptionReport>`;
    expect(serviceExceptionText(report('<ServiceException code="X">\n  Bad &lt;LAYERS&gt; &amp; &#233;\n</ServiceException>'))).toBe('Bad <LAYERS> & é');
    expect(serviceExceptionText(report('<ServiceException><![CDATA[a < b & c]]></ServiceException><ServiceException code="InvalidCRS"/>'))).toBe(
      'a < b & c InvalidCRS',
    );
    expect(
      serviceExceptionText('<ows:ExceptionReport><ows:Exception exceptionCode="NoApplicableCode"><ows:ExceptionText>Down</ows:ExceptionText></ows:Exception></ows:ExceptionReport>'),
    ).toBe('Down');
    const long = serviceExceptionText(report(`<ServiceException>${'word '.repeat(100)}</ServiceException>`))!;
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long).toMatch(/^word word .*…$/);
    expect(serviceExceptionText('<html><body>Login</body></html>')).toBeUndefined();
  });

  // Each body is a few megabytes that the former pattern (a lazy match up to a closing tag,
  // retried from every opening tag) took minutes over; a scan that reads each character a
  // bounded number of times answers before the test's timeout.
  it.each([
    ['opening tags that never close', '<ServiceException>'.repeat(200_000) + '<ows:ExceptionText>real</ows:ExceptionText>', 'real'],
    ['closing tags without their >', '<ServiceException>real</ServiceException>' + '</ServiceException'.repeat(200_000), 'real'],
    // Text that is no markup after all is passed on as it came, cut to 200 characters.
    ['unterminated CDATA sections', `<ServiceException>${'<![CDATA['.repeat(400_000)}</ServiceException>`, `${'<![CDATA['.repeat(23).slice(0, 199)}…`],
    ["'<' without '>'", `<ServiceException>${'<'.repeat(3_000_000)}x</ServiceException>`, `${'<'.repeat(199)}…`],
    ['entity-like runs', `<ServiceException>${'&a'.repeat(1_500_000)}</ServiceException>`, `${'&a'.repeat(100).slice(0, 199)}…`],
  ])('reads a hostile report of %s in one pass', (_, body, expected) => {
    expect(body.length).toBeGreaterThan(1_000_000);
    expect(serviceExceptionText(body)).toBe(expected);
  });
});

describe('maps over a wms basemap', () => {
  async function mapPng(query: Record<string, string | number>): Promise<DecodedPng> {
    const response = await fetch(mapUrl(server, { format: 'png', ...query }));
    expect(response.status, await response.clone().text()).toBe(200);
    return decodePng(new Uint8Array(await response.arrayBuffer()));
  }

  it.each([
    ['Road', 'WMS 1.3.0'],
    ['AerialWithLabels', 'WMS 1.1.1'],
  ])('draws the features over the GetMap image (%s: %s)', async (type) => {
    const zoom = 9;
    const image = await mapPng({ file: 'points', fid: 0, zoom, type }); // the point is CENTRE
    const [wx, wy] = worldPixel(CENTRE.lon, CENTRE.lat, zoom);
    const [cx, cy] = [wx - Math.round(wx - 320), wy - Math.round(wy - 240)];
    expect(quadrantColours(image, [cx, cy], 40)).toEqual({ nw: NW, ne: NE, sw: SW, se: SE });
    const [x, y] = quadrantEdges(image, [cx, cy], 40);
    expect(Math.abs(x - cx)).toBeLessThan(1);
    expect(Math.abs(y - cy)).toBeLessThan(1);
    // The red point symbol is drawn over the quadrants' corner.
    const drawn = redCentre(image, cx, cy)!;
    expect(Math.hypot(drawn[0] - cx, drawn[1] - cy)).toBeLessThan(0.6);
  });

  it('credits the WMS in the Copyright', async () => {
    const response = await fetch(mapUrl(server, { file: 'points', fid: 0, zoom: 9, format: 'json' }));
    expect(response.status).toBe(200);
    expect((await response.json()).Copyright).toMatch(/ WMS © Test$/);
  });

  it('answers 503 naming the provider, with the ServiceException text, when the WMS refuses the layer', async () => {
    const response = await fetch(mapUrl(server, { file: 'points', fid: 0, zoom: 9, type: 'Aerial', format: 'json' }));
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = await response.json();
    expect(body.ErrorDetails).toMatch(
      /^Basemap provider 'broken' is unavailable: the WMS server reported an exception: .*Invalid layer\(s\) given in the LAYERS parameter/,
    );
  });
});
