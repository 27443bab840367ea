/**
 * Only regular files are read. A FIFO swapped in for a listed `.shp` would hold a drawing
 * worker in open() until some process wrote to it; it is opened without waiting, seen for
 * what it is, and refused with a 500 naming the file, and the server serves on.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtures } from '../support/fixtures.ts';
import { imagesUrl, startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let dataDir: string;

/** The folder's modification time, set to a whole second so that it can be put back exactly. */
const FOLDER_TIME = 1_700_000_000;

beforeAll(async () => {
  dataDir = writeFixtures();
  utimesSync(dataDir, FOLDER_TIME, FOLDER_TIME);
  server = await startServer({ dataDir });
});

afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a FIFO in place of a .shp', () => {
  it('is refused at once with a 500 naming the file, and the next request is served', async () => {
    // Listed while it was a regular file.
    expect((await fetch(imagesUrl(server, { file: 'lines', fid: 0, format: 'json' }))).status).toBe(200);
    // Swapped for a FIFO behind the listing's back: the folder's time put back, it is not listed again.
    rmSync(join(dataDir, 'squares.shp'));
    execFileSync('mkfifo', [join(dataDir, 'squares.shp')]);
    utimesSync(dataDir, FOLDER_TIME, FOLDER_TIME);

    const refused = await fetch(imagesUrl(server, { file: 'squares', fid: 0, format: 'json', noCache: 1 }));
    expect(refused.status).toBe(500);
    expect((await refused.json()).ErrorDetails).toBe(
      "Shapefile file 'squares.shp' is not a regular file (a FIFO, a device or a folder); only regular files are read.",
    );
    // As many requests as the pool has workers: none of them is stuck in open().
    for (let i = 0; i < server.services.jobs.workers; i++) {
      expect((await fetch(imagesUrl(server, { file: 'squares', fid: 0, format: 'json' }))).status).toBe(500);
    }
    expect((await fetch(imagesUrl(server, { file: 'lines', fid: 0, format: 'json' }))).status).toBe(200);
  });
});
