/**
 * Tiles from remote data sources (issue 32, "Done when"): the same files served from a local
 * folder, from s3rver (`dataDir: s3://bucket/prefix/`) and from nginx over HTTP give the same
 * tiles, byte for byte, raster and vector, styled and filtered, and the same empty tiles
 * outside the layer.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TileAddress } from '../../src/projection/tile-address.ts';
import { decodePng } from '../support/png.ts';
import type { TestServer } from '../support/server.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { serveFromThreeSources, type ThreeSources } from '../support/three-sources.ts';
import { TEST_RENDER, fetchTile, paintedMask, tileAt, type TileSuffix } from '../support/tiles.ts';

const DATA = fileURLToPath(new URL('../../data/', import.meta.url));

let local: TestServer;
let overS3: TestServer;
let overHttp: TestServer;
let sources: ThreeSources | undefined;

beforeAll(async () => {
  const files = readdirSync(DATA).filter((name) => /\.(shp|shx|dbf|prj|cpg)$/.test(name)).map((name) => join(DATA, name));
  sources = await serveFromThreeSources(files, { render: TEST_RENDER });
  ({ local, overS3, overHttp } = sources);
}, 60_000);

afterAll(async () => {
  await sources?.stop();
  removeTempDirs();
});

/** Per file: a tile holding the layer whole, one cutting it, and one the layer does not reach (its empty tile). */
const cases: [string, TileAddress[], Record<string, string>][] = [
  ['countries', [{ z: 2, x: 2, y: 1 }, tileAt(5, 52, 6), tileAt(-150, -60, 5)], { styleBy: 'REGION' }],
  ['benelux_rd', [tileAt(5, 51, 5), tileAt(4.9, 51.45, 10), tileAt(100, 0, 4)], { where: "NAME_EN = 'Belgium'" }],
  ['borders', [tileAt(5, 51, 4), tileAt(6.1, 50.5, 9), tileAt(0, -60, 6)], { lineColor: '0000FF', lineWidth: '3' }],
  ['country_centres', [{ z: 1, x: 1, y: 0 }, tileAt(5, 51, 6), tileAt(-30, 0, 7)], { fillColor: '00FF00' }],
];

describe('tiles from S3 and HTTP sources equal the folder’s, byte for byte', () => {
  it.each(cases)('%s', async (file, tiles, style) => {
    let painted = 0;
    for (const tile of tiles) {
      for (const [suffix, query] of [['png', style], ['@2x.png', {}], ['mvt', { fields: 'NAME' }]] as [TileSuffix, Record<string, string>][]) {
        const expected = await fetchTile(local, file, tile, suffix, query);
        if (suffix === 'png') painted += paintedMask(decodePng(expected)).reduce((sum, pixel) => sum + pixel, 0);
        for (const server of [overS3, overHttp]) {
          expect(Buffer.from(await fetchTile(server, file, tile, suffix, query)).equals(Buffer.from(expected)), `${file} ${tile.z}/${tile.x}/${tile.y}.${suffix}`).toBe(true);
        }
      }
    }
    // Tiles with something in them: a comparison of empty tiles alone would prove little.
    expect(painted).toBeGreaterThan(500);
  });
});
