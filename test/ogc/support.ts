/** A server over test shapefiles for the /ogc tests, and requests to it with the key in the X-API-Key header. */
import { copyFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLE_DATA_DIR } from '../../src/config/package-folders.ts';
import type { DrawingContext } from '../../src/job-context/context.ts';
import { createOpenShapefiles, type OpenShapefiles } from '../../src/shapefile/open-shapefiles.ts';
import { GDAL_FIXTURES } from '../support/gdal-reference.ts';
import { RD_NEW_PRJ, writeFixtures } from '../support/fixtures.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/** A key that may see only two of the shapefiles (spelled here in another case than on disk). */
export const LIMITED_KEY = 'limited-key-0123456789';
export const LIMITED_TO = ['squares', 'POINTS'];

/**
 * writeFixtures()'s files (squares, lines, points, cities, arctic), the sample data's
 * countries, and `deleted`: GDAL's file whose feature 1 has its .dbf row marked deleted and
 * feature 2 a null shape, given RD New's .prj so that it can be served in WGS 84; and the
 * same without .prj as `unplaced`, whose coordinates are no longitudes and latitudes.
 */
export function ogcFixtures(): string {
  const dir = writeFixtures(makeTempDir('shapeshot-ogc-'));
  for (const file of readdirSync(SAMPLE_DATA_DIR).filter((name) => name.startsWith('countries.'))) {
    copyFileSync(join(SAMPLE_DATA_DIR, file), join(dir, file));
  }
  for (const extension of ['shp', 'shx', 'dbf']) {
    for (const name of ['deleted', 'unplaced']) copyFileSync(join(GDAL_FIXTURES, `gdal_deleted.${extension}`), join(dir, `${name}.${extension}`));
  }
  writeFileSync(join(dir, 'deleted.prj'), RD_NEW_PRJ);
  return dir;
}

/** A checkpoint that never stops the work. */
export const noCheckpoint = () => undefined;

/**
 * ogcFixtures() opened as a drawing worker opens its files, on the test's thread: for the
 * worker jobs' own functions, called directly.
 */
export function fixturesOnTestThread(): { dir: string; shapefiles: OpenShapefiles; context: DrawingContext } {
  const dir = ogcFixtures();
  const shapefiles = createOpenShapefiles({ realRoot: realpathSync(dir), cacheBytes: 0, maxOpen: 8, onProblem: () => undefined });
  const context = { shapefiles, checkpoint: noCheckpoint, lap: noCheckpoint } as unknown as DrawingContext;
  return { dir, shapefiles, context };
}

export function startOgcServer(config: Record<string, unknown> = {}): Promise<TestServer> {
  return startServer({
    dataDir: ogcFixtures(),
    keys: [{ key: TEST_KEY }, { key: LIMITED_KEY, shapefiles: LIMITED_TO }],
    ...config,
  });
}

export interface Answer<Body = any> {
  status: number;
  headers: Headers;
  body: Body;
}

/** GET `pathOrUrl` (a path below the server, or a link's href) with `key` in the X-API-Key header. */
export async function get<Body = any>(server: TestServer, pathOrUrl: string, key = TEST_KEY, init: RequestInit = {}): Promise<Answer<Body>> {
  const url = pathOrUrl.startsWith('http') ? pathOrUrl : server.url(pathOrUrl);
  const response = await fetch(url, { ...init, headers: { 'X-API-Key': key, ...init.headers } });
  // A tile is bytes, not a document.
  if (/^(image\/png|application\/vnd\.mapbox-vector-tile)/.test(response.headers.get('content-type') ?? '')) {
    return { status: response.status, headers: response.headers, body: new Uint8Array(await response.arrayBuffer()) as Body };
  }
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

/** Every href in a document, wherever its links are. */
export function hrefsIn(document: unknown): string[] {
  return [...JSON.stringify(document).matchAll(/"href":"([^"]*)"/g)].map((match) => match[1]);
}
