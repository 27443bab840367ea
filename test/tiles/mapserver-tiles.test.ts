/**
 * Our tiles beside MapServer's tile mode (issue 32, "Tests"): the same sample files, drawn by
 * mapserv (run as CGI per request, test/support/wms-server.ts) from a mapfile in the peer
 * kit's style (bench peers' tiles.map: fill #D3D3D3, outline red 2 px, transparent; points
 * circles of radius 5, our default), `mode=tile&tilemode=gmap&tile=X+Y+Z`. Raster tiles are
 * compared as masks of painted pixels (two anti-aliasing painters differ at every edge by a
 * fraction of a pixel: what must agree is where the features are); vector tiles by the
 * features each holds, with the same 64-unit buffer (`EDGE_BUFFER=64`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TileAddress } from '../../src/projection/tile-address.ts';
import { decodePng } from '../support/png.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { TEST_RENDER, fetchTile, maskIoU, maskIoUWithin, paintedMask, tileAt } from '../support/tiles.ts';
import { startWmsServer, type WmsServer } from '../support/wms-server.ts';

const DATA = fileURLToPath(new URL('../../data/', import.meta.url));

/** The layers of the mapfile: each a sample file, its type and CRS, in our default style. */
const LAYERS = [
  { name: 'benelux_rd', type: 'POLYGON', epsg: 28992, style: 'COLOR 211 211 211 OUTLINECOLOR 255 0 0 WIDTH 2' },
  { name: 'countries', type: 'POLYGON', epsg: 4326, style: 'COLOR 211 211 211 OUTLINECOLOR 255 0 0 WIDTH 2' },
  { name: 'borders', type: 'LINE', epsg: 4326, style: 'COLOR 255 0 0 WIDTH 2' },
  { name: 'country_centres', type: 'POINT', epsg: 4326, style: 'SYMBOL "circle" SIZE 10 COLOR 211 211 211 OUTLINECOLOR 255 0 0 WIDTH 2' },
];

const MAPFILE = `MAP
  NAME "tiles"
  SIZE 256 256
  MAXSIZE 4096
  UNITS METERS
  EXTENT -20037508 -20037508 20037508 20037508
  SHAPEPATH "${DATA}"
  IMAGETYPE "png32"
  PROJECTION "init=epsg:3857" END
  OUTPUTFORMAT
    NAME "png32"
    DRIVER "AGG/PNG"
    MIMETYPE "image/png"
    IMAGEMODE RGBA
    TRANSPARENT ON
    EXTENSION "png"
  END
  OUTPUTFORMAT
    NAME "mvt"
    DRIVER "MVT"
    FORMATOPTION "EXTENT=4096"
    FORMATOPTION "EDGE_BUFFER=4"
  END
  SYMBOL NAME "circle" TYPE ELLIPSE FILLED TRUE POINTS 1 1 END END
${LAYERS.map(
  ({ name, type, epsg, style }) => `  LAYER
    NAME "${name}"
    TYPE ${type}
    STATUS ON
    DATA "${name}"
    PROJECTION "init=epsg:${epsg}" END
    CLASS
      STYLE ${style} END
    END
  END`,
).join('\n')}
END
`;

let server: TestServer;
let mapserver: WmsServer;

beforeAll(async () => {
  const folder = makeTempDir('shapeshot-mapserver-tiles-');
  const mapfile = join(folder, 'tiles.map');
  writeFileSync(mapfile, MAPFILE);
  mapserver = await startWmsServer(mapfile);
  server = await startServer({ dataDir: DATA, render: TEST_RENDER });
}, 60_000);

afterAll(async () => {
  await Promise.all([server?.close(), mapserver?.close()]);
  removeTempDirs();
});

/** MapServer's tile of one layer, PNG or MVT. */
async function mapserverTile(layer: string, { z, x, y }: TileAddress, format: 'png' | 'mvt'): Promise<Uint8Array> {
  const query = `mode=tile&tilemode=gmap&tile=${x}+${y}+${z}&layers=${layer}${format === 'mvt' ? '&map.imagetype=mvt' : ''}`;
  const response = await fetch(`${mapserver.url}?${query}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const expected = format === 'png' ? 'image/png' : 'application/vnd.mapbox-vector-tile';
  if (response.status !== 200 || response.headers.get('content-type') !== expected) {
    throw new Error(`mapserv answered ${query} with ${response.status} ${response.headers.get('content-type')}: ${new TextDecoder().decode(bytes).slice(0, 300)}`);
  }
  return bytes;
}

/**
 * The ids of a vector tile's features whose geometry (its bounding box) reaches into the tile
 * itself, buffer left out: MapServer's `EDGE_BUFFER` is in pixels of the map's SIZE (4 px of
 * 256 = our 64 units), yet it leaves out lines that reach a few units into its right or bottom
 * buffer, and keeps a polygon whose bounding box meets the tile as a ring collapsed onto the
 * buffer's edge (Russia's, at z 7 over the Benelux); in the tile proper both hold the same.
 * MapServer gives each feature its shape index, our fid, as its id.
 */
function idsInTile(bytes: Uint8Array, layer: string): number[] {
  const found = new VectorTile(new PbfReader(bytes)).layers[layer];
  const ids: number[] = [];
  for (let i = 0; i < (found?.length ?? 0); i++) {
    const feature = found!.feature(i);
    const points = feature.loadGeometry().flat();
    const xs = points.map(({ x }) => x);
    const ys = points.map(({ y }) => y);
    const extent = feature.extent;
    if (Math.max(...xs) > 0 && Math.min(...xs) < extent && Math.max(...ys) > 0 && Math.min(...ys) < extent) ids.push(feature.id!);
  }
  return ids.sort((a, b) => a - b);
}

/** Tiles of each layer: one holding features whole, some cutting them, at zooms from 3 to 12. */
const TILES: [string, TileAddress][] = [
  ['benelux_rd', tileAt(5, 51, 5)],
  ['benelux_rd', tileAt(4.9, 51.45, 9)],
  ['benelux_rd', tileAt(4.12, 51.98, 12)],
  ['countries', tileAt(10, 50, 3)],
  ['countries', tileAt(4.0, 51.9, 7)],
  ['borders', tileAt(10, 50, 4)],
  ['borders', tileAt(6.1, 50.1, 8)],
  ['country_centres', tileAt(10, 50, 3)],
  ['country_centres', tileAt(5, 50, 5)],
];

describe("MapServer's tile mode draws the tiles we draw", () => {
  it.each(TILES)('%s %o: PNG masks alike', async (layer, tile) => {
    const [ours, theirs] = await Promise.all([fetchTile(server, layer, tile, 'png'), mapserverTile(layer, tile, 'png')]);
    const oursMask = paintedMask(decodePng(ours));
    const theirMask = paintedMask(decodePng(theirs));
    const { iou, either } = maskIoU(oursMask, theirMask);
    const near = maskIoUWithin(oursMask, theirMask, 256);
    console.log(`${layer} ${tile.z}/${tile.x}/${tile.y}.png: IoU ${iou.toFixed(4)}, within 1 px ${near.toFixed(4)} over ${either} px`);
    // Tiles with features in them: two blank tiles would agree perfectly.
    expect(either).toBeGreaterThan(100);
    expect(near, `${layer} ${tile.z}/${tile.x}/${tile.y}: IoU within one pixel`).toBeGreaterThanOrEqual(0.98);
    // Filled polygons are mostly inside pixels: there the masks themselves agree. A 2-px stroke or a 10-px symbol is mostly edge,
    // which the two painters' anti-aliasing takes on either side of half opaque (IoU 0.65 and 0.85 measured): their slack above is what they are held to.
    if (LAYERS.find(({ name }) => name === layer)!.type === 'POLYGON') expect(iou, `${layer} ${tile.z}/${tile.x}/${tile.y}: IoU`).toBeGreaterThanOrEqual(0.95);
  });

  it.each(TILES)('%s %o: MVT with the same features in the tile', async (layer, tile) => {
    const [ours, theirs] = await Promise.all([fetchTile(server, layer, tile, 'mvt'), mapserverTile(layer, tile, 'mvt')]);
    const ids = idsInTile(ours, layer);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids, `${layer} ${tile.z}/${tile.x}/${tile.y}.mvt`).toEqual(idsInTile(theirs, layer));
    console.log(`${layer} ${tile.z}/${tile.x}/${tile.y}.mvt: ${ids.length} features`);
  });
});
