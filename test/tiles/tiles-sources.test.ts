/**
 * Tiles from remote data sources (issue 32, "Done when"): the same files served from a local
 * folder, from s3rver (`dataDir: s3://bucket/prefix/`) and from nginx over HTTP give the same
 * tiles, byte for byte, raster and vector, styled and filtered, and the same empty tiles
 * outside the layer.
 */
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TileAddress } from '../../src/projection/tile-address.ts';
import { startNginx, type Nginx } from '../support/nginx.ts';
import { decodePng } from '../support/png.ts';
import { S3RVER_CREDENTIALS, startS3Server, type S3Server } from '../support/s3-server.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { TEST_RENDER, fetchTile, paintedMask, tileAt, type TileSuffix } from '../support/tiles.ts';

const DATA = fileURLToPath(new URL('../../data/', import.meta.url));
const PREFIX = 'data/';

let local: TestServer;
let overS3: TestServer;
let overHttp: TestServer;
let s3: S3Server;
let nginx: Nginx;
const savedEnv = { ...process.env };

beforeAll(async () => {
  const folder = makeTempDir('shapeshot-tile-sources-');
  const files = readdirSync(DATA).filter((name) => /\.(shp|shx|dbf|prj|cpg)$/.test(name));
  for (const name of files) copyFileSync(join(DATA, name), join(folder, name));
  s3 = await startS3Server();
  for (const name of files) await s3.put(`${PREFIX}${name}`, readFileSync(join(DATA, name)));
  // The S3 source takes its credentials from the standard variables, as in production; the workers inherit them.
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey, AWS_REGION: 'us-east-1' });
  const common = { render: TEST_RENDER };
  local = await startServer({ ...common, dataDir: folder });
  overS3 = await startServer({ ...common, dataDir: `s3://${s3.bucket}/${PREFIX}`, s3: { endpoint: s3.endpoint } });
  nginx = await startNginx(folder);
  overHttp = await startServer({ ...common, dataDir: nginx.url });
}, 60_000);

afterAll(async () => {
  await Promise.all([local?.close(), overHttp?.close(), overS3?.close()]);
  await nginx?.stop();
  await s3?.stop();
  process.env = savedEnv;
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
