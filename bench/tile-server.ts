import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodePng } from '../src/raster/png.js';

/**
 * A tile server for the map benchmark: tiles with some texture (so their PNGs have a
 * realistic size), made once per address. Prints its URL template, then serves until killed.
 */
const made = new Map<string, Uint8Array>();
const server = createServer((request, response) => {
  const match = /^\/(\d+)\/(\d+)\/(\d+)\.png/.exec(request.url ?? '');
  if (!match) return void response.writeHead(404).end();
  let tile = made.get(match[0]);
  if (!tile) {
    tile = texturedTile(Number(match[2]), Number(match[3]));
    made.set(match[0], tile);
  }
  response.writeHead(200, { 'Content-Type': 'image/png' }).end(tile);
});
server.listen(0, '127.0.0.1', () => {
  console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}/{z}/{x}/{y}.png`);
});
process.once('SIGTERM', () => process.exit(0));

function texturedTile(x: number, y: number): Uint8Array {
  const rgba = new Uint8Array(256 * 256 * 4);
  for (let row = 0; row < 256; row++) {
    for (let column = 0; column < 256; column++) {
      const street = row % 37 < 3 || column % 53 < 4;
      const shade = ((x * 31 + y * 17 + row * 3 + column * 5) % 23) + 220;
      rgba.set(street ? [255, 255, 255, 255] : [shade - 10, shade, shade - 30, 255], (row * 256 + column) * 4);
    }
  }
  return encodePng(rgba, 256, 256, 6);
}
