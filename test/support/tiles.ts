/**
 * What the tiles' tests (test/tiles/) share: a tile's URL and answer, the tile that holds a
 * place, shapefiles written by GDAL's ogr2ogr as a user's own files would be, and the masks
 * of painted pixels that raster tiles are compared by (with each other, with the map
 * operation's picture, with MapServer's tiles).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TileAddress } from '../../src/projection/tile-address.ts';
import { lonLatToWorldPixel, TILE_SIZE } from '../../src/projection/web-mercator.ts';
import type { DecodedPng } from './png.ts';
import { TEST_KEY, type TestServer } from './server.ts';

const run = promisify(execFile);

/** A GDAL program (ogr2ogr, ogrinfo) run to its end; its standard output. */
export async function gdal(program: 'ogr2ogr' | 'ogrinfo', args: string[]): Promise<string> {
  return (await run(program, args, { maxBuffer: 1 << 28 })).stdout;
}

/**
 * `folder/name.shp`, written by ogr2ogr from `source` with `options` (a CRS, a clip, the
 * fields kept), its .dbf in UTF-8 with a .cpg saying so. Returns the .shp's path.
 */
export async function writeShapefile(folder: string, name: string, source: string, options: string[]): Promise<string> {
  const shp = join(folder, `${name}.shp`);
  await gdal('ogr2ogr', ['-f', 'ESRI Shapefile', '-lco', 'ENCODING=UTF-8', ...options, shp, source]);
  return shp;
}

export type TileSuffix = 'png' | '@2x.png' | 'mvt';

/** A tile's URL on `server` for the test key, with the style, filter or fields of `query`. */
export function tileUrl(server: TestServer, file: string, { z, x, y }: TileAddress, suffix: TileSuffix, query: Record<string, string> = {}): string {
  const params = new URLSearchParams({ key: TEST_KEY, ...query });
  const name = suffix === '@2x.png' ? `${y}@2x.png` : `${y}.${suffix}`;
  return server.url(`/REST/v1/shapefiles/tiles/${encodeURIComponent(file)}/${z}/${x}/${name}?${params}`);
}

/** A tile's answer; a tile that is not a 200 fails the test, naming the URL and what came instead. */
export async function fetchTile(...args: Parameters<typeof tileUrl>): Promise<Uint8Array> {
  const url = tileUrl(...args);
  const response = await fetch(url);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${new TextDecoder().decode(bytes).slice(0, 500)}`);
  return bytes;
}

/** The tile of zoom `z` that holds the place (lon, lat). */
export function tileAt(lon: number, lat: number, z: number): TileAddress {
  const { x, y } = lonLatToWorldPixel(lon, lat, z);
  return { z, x: Math.floor(x / TILE_SIZE), y: Math.floor(y / TILE_SIZE) };
}

/** 1 where a picture is painted (alpha at least `minAlpha`: half opaque by default, where an anti-aliased edge's centre lies inside), else 0. */
export function paintedMask({ data, width, height }: DecodedPng, minAlpha = 128): Uint8Array {
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) mask[i] = data[4 * i + 3] >= minAlpha ? 1 : 0;
  return mask;
}

/** Intersection over union of two masks of one pixel grid, over the pixels `counted` keeps (all by default); 1 when neither has any. */
export function maskIoU(a: Uint8Array, b: Uint8Array, counted: (pixel: number) => boolean = () => true): { iou: number; both: number; either: number } {
  if (a.length !== b.length) throw new Error(`masks of ${a.length} and ${b.length} pixels`);
  let both = 0;
  let either = 0;
  for (let i = 0; i < a.length; i++) {
    if (!counted(i)) continue;
    if (a[i] && b[i]) both++;
    if (a[i] || b[i]) either++;
  }
  return { iou: either === 0 ? 1 : both / either, both, either };
}

/**
 * IoU with a pixel's slack: a painted pixel of either mask counts as shared when the other
 * mask paints a pixel within `slack` pixels of it (rows and columns), as two anti-aliasing
 * painters of one thin stroke or small symbol place its edge pixels; a shape drawn more than
 * `slack` pixels away from the other's still counts against.
 */
export function maskIoUWithin(a: Uint8Array, b: Uint8Array, width: number, slack = 1): number {
  const near = (mask: Uint8Array, pixel: number) => {
    const [x, y] = [pixel % width, Math.floor(pixel / width)];
    const height = mask.length / width;
    for (let dy = -slack; dy <= slack; dy++) {
      for (let dx = -slack; dx <= slack; dx++) {
        const [nx, ny] = [x + dx, y + dy];
        if (nx >= 0 && ny >= 0 && nx < width && ny < height && mask[ny * width + nx]) return true;
      }
    }
    return false;
  };
  let shared = 0;
  let either = 0;
  for (let i = 0; i < a.length; i++) {
    if (!a[i] && !b[i]) continue;
    either++;
    if ((a[i] ? near(b, i) : true) && (b[i] ? near(a, i) : true)) shared++;
  }
  return either === 0 ? 1 : shared / either;
}

/**
 * The drawing settings of the tiles' test servers: one worker, and no request refused for the
 * wait it would have (render.maxWaitMs): tests ask for several tiles at once on a machine
 * other tests load, and must get them all, however slowly.
 */
export const TEST_RENDER = { workers: 1, maxWaitMs: 120_000 };
