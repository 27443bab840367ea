/**
 * Basemap images are held against their declared size before anything decodes them: a tile
 * of a few bytes whose PNG header declares 100000 × 100000 pixels would have resvg allocate
 * 40 GB. Read from the headers (plugin-contract/image-size.ts), and refused as a failed tile is: the map
 * goes to the provider's fallback, or answers 503 naming the reason.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeJpeg } from '../../src/raster/jpeg.ts';
import { crc32, encodePng } from '../../src/raster/png.js';
import { declaredImageSize, imageSizeProblem } from '../../src/plugin-contract/image-size.ts';
import { writeFixtures } from '../support/fixtures.ts';
import { decodePng } from '../support/png.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { CHECKERBOARD_PLUGIN, mapUrl } from './support.ts';

/** A PNG's signature and IHDR chunk (CRC included) declaring `width` × `height`, then IEND: no pixels at all. */
function pngHeader(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const bytes = new Uint8Array(12 + data.length);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, data.length);
    bytes.set(Buffer.from(type, 'latin1'), 4);
    bytes.set(data, 8);
    view.setUint32(8 + data.length, crc32(bytes.subarray(4, 8 + data.length)));
    return bytes;
  };
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IEND', new Uint8Array(0))]);
}

/** A RIFF/WEBP file of one chunk of type `fourCc` holding `payload`. */
function webp(fourCc: string, payload: number[]): Uint8Array {
  const bytes = Buffer.alloc(20 + payload.length);
  bytes.write('RIFF', 0, 'latin1');
  bytes.writeUInt32LE(12 + payload.length, 4);
  bytes.write('WEBP', 8, 'latin1');
  bytes.write(fourCc, 12, 'latin1');
  bytes.writeUInt32LE(payload.length, 16);
  Buffer.from(payload).copy(bytes, 20);
  return bytes;
}

describe('declared image size', () => {
  it('reads PNG and JPEG headers as the encoders wrote them', async () => {
    const pixels = new Uint8Array(37 * 23 * 4).fill(200);
    expect(declaredImageSize(encodePng(pixels, 37, 23))).toEqual({ width: 37, height: 23 });
    expect(declaredImageSize(await encodeJpeg(pixels, 37, 23, 80))).toEqual({ width: 37, height: 23 });
    expect(declaredImageSize(pngHeader(100_000, 100_000))).toEqual({ width: 100_000, height: 100_000 });
  });

  it('reads the three kinds of WebP header', () => {
    // The first bytes of a real 16 × 16 extended WebP (Python's test image, python.webp).
    const extended = Buffer.from('52494646a8010000574542505650385800000000100000000f00000f0000', 'hex');
    expect(declaredImageSize(extended)).toEqual({ width: 16, height: 16 });
    // Lossy: a key frame's tag, the start code 9D 01 2A, 14-bit width and height.
    expect(declaredImageSize(webp('VP8 ', [0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, 37, 0, 23, 0]))).toEqual({ width: 37, height: 23 });
    // Lossless: the signature 2F, then width - 1 and height - 1 in 14 bits each.
    const bits = 36 | (22 << 14);
    expect(declaredImageSize(webp('VP8L', [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, bits >>> 24]))).toEqual({ width: 37, height: 23 });
  });

  it('finds a JPEG frame after other segments, and says nothing of a header cut short or of no image', () => {
    const app = [0xff, 0xe0, 0x00, 0x10, ...new Array(14).fill(0)];
    const frame = [0xff, 0xc2, 0x00, 0x11, 0x08, 0x01, 0x2c, 0x02, 0x58, 0x03];
    expect(declaredImageSize(new Uint8Array([0xff, 0xd8, ...app, 0xff, 0xff, ...frame]))).toEqual({ width: 600, height: 300 });
    expect(declaredImageSize(new Uint8Array([0xff, 0xd8, ...app]))).toBeUndefined();
    expect(declaredImageSize(pngHeader(10, 10).subarray(0, 20))).toBeUndefined();
    expect(declaredImageSize(new TextEncoder().encode('<html>not an image</html>'))).toBeUndefined();
  });

  it('is refused past the bound, naming both sizes, and when it cannot be read', () => {
    const bound = { width: 2048, height: 2048 };
    expect(imageSizeProblem(pngHeader(2048, 2048), bound)).toBeUndefined();
    expect(imageSizeProblem(pngHeader(100_000, 100_000), bound)).toBe('it declares 100000 × 100000 pixels; at most 2048 × 2048 are drawn');
    expect(imageSizeProblem(pngHeader(10, 10).subarray(0, 20), bound)).toMatch(/^its header does not say its size/);
  });
});

const HUGE = pngHeader(100_000, 100_000);

/** An HTTP server on loopback that answers every request with HUGE as a PNG, and counts the requests. */
async function startHugeImageServer(): Promise<{ origin: string; requests: string[]; server: Server }> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    response.writeHead(200, { 'Content-Type': 'image/png' }).end(HUGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
}

/** A third party's plugin, as an operator would drop one in, that hands over HUGE as its one tile. */
function writeOversizedPlugin(dir: string): string {
  const path = join(dir, 'oversized-plugin.mjs');
  const bytes = JSON.stringify([...HUGE]);
  writeFileSync(
    path,
    `export default { sdkVersion: 1, create: (options, context) => ({ name: context.name, async render() {
      return { below: { images: [{ x: 0, y: 0, width: 256, height: 256, mime: 'image/png', bytes: new Uint8Array(${bytes}) }] }, attribution: '' };
    } }) };\n`,
  );
  return path;
}

describe('oversized basemap images', () => {
  let images: Awaited<ReturnType<typeof startHugeImageServer>>;
  let server: TestServer;

  beforeAll(async () => {
    images = await startHugeImageServer();
    const dataDir = writeFixtures();
    server = await startServer({
      dataDir,
      logLevel: 'warn',
      basemaps: {
        providers: {
          hugeTiles: { plugin: 'xyz', options: { url: `${images.origin}/{z}/{x}/{y}.png`, retries: 0 }, fallback: 'board' },
          board: { plugin: CHECKERBOARD_PLUGIN, options: { colour1: '#ffffff', colour2: '#ffffff' } },
          hugeWms: { plugin: 'wms', options: { url: `${images.origin}/wms`, layers: 'all', cacheBytes: 0 } },
          thirdParty: { plugin: writeOversizedPlugin(makeTempDir('shapeshot-plugin-')) },
        },
        types: { Road: 'hugeTiles', Aerial: 'hugeWms', AerialWithLabels: 'thirdParty' },
      },
    });
  });

  afterAll(async () => {
    await server.close();
    await new Promise((resolve) => images.server.close(resolve));
    removeTempDirs();
  });

  it('a tile that declares 100000 × 100000 pixels fails as a tile does: the fallback draws the map', async () => {
    const response = await fetch(mapUrl(server, { file: 'points', fid: 0, zoom: 5, type: 'Road', format: 'png' }));
    expect(response.status, await response.clone().text()).toBe(200);
    const image = decodePng(new Uint8Array(await response.arrayBuffer()));
    // The fallback's white board, where the refused tiles would have been.
    expect(image.pixel(5, 5)).toEqual([255, 255, 255, 255]);
    expect(images.requests.some((path) => /^\/5\/\d+\/\d+\.png$/.test(path))).toBe(true);
    expect(server.log.join('')).toContain('the tile server sent a tile that is not drawn: it declares 100000 × 100000 pixels; at most 2048 × 2048 are drawn');
  });

  it.each([
    ['Aerial', "Basemap provider 'hugeWms' is unavailable: the WMS server answered GetMap for 640 × 480 pixels with an image that is not drawn: it declares 100000 × 100000 pixels; at most 640 × 480 are drawn."],
    ['AerialWithLabels', "Basemap provider 'thirdParty' is unavailable: an image it sent is not drawn: it declares 100000 × 100000 pixels; at most 2048 × 2048 are drawn."],
  ])('a %s map whose provider has no fallback answers 503 naming the image', async (type, details) => {
    const response = await fetch(mapUrl(server, { file: 'points', fid: 0, zoom: 5, type, format: 'json' }));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).not.toBeNull();
    expect((await response.json()).ErrorDetails).toBe(details);
  });
});
