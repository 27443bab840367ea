import { copyFileSync, readdirSync, truncateSync, writeFileSync, statSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { square, writeFixtures } from '../support/fixtures.ts';
import { decodePng } from '../support/png.ts';
import { imagesUrl, startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { createShapefileWriter } from '../../scripts/lib/shapefile-writer.ts';
import { ShapeType } from '../../src/shapefile/types.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const get = (query: Record<string, string | number>) => fetch(imagesUrl(server!, { format: 'json', ...query }));

describe('damaged shapefiles', () => {
  it('answer 500 naming the file and fault, and everything else is still served', async () => {
    const dir = writeFixtures();
    for (const ext of ['shp', 'shx', 'dbf', 'prj', 'cpg']) copyFileSync(join(dir, `squares.${ext}`), join(dir, `cut.${ext}`));
    truncateSync(join(dir, 'cut.shp'), statSync(join(dir, 'cut.shp')).size - 30);
    writeFileSync(join(dir, 'garbage.shp'), Buffer.alloc(400, 7));
    writeFileSync(join(dir, 'garbage.shx'), Buffer.alloc(400, 7));
    server = await startServer({ dataDir: dir });

    const cut = await get({ file: 'cut', fid: 5 });
    expect(cut.status).toBe(500);
    const cutBody = await cut.json();
    expect(cutBody.StatusDescription).toBe('Internal Server Error');
    expect(cutBody.ErrorDetails).toContain('cut.shp');

    expect((await get({ file: 'cut', fid: 0 })).status).toBe(200);

    const garbage = await get({ file: 'garbage', fid: 0 });
    expect(garbage.status).toBe(500);
    expect((await garbage.json()).ErrorDetails).toContain('garbage.sh');

    expect((await get({ file: 'squares', fid: 1 })).status).toBe(200);
  });

  it('rebuilds a missing .shx', async () => {
    const dir = writeFixtures();
    rmSync(join(dir, 'squares.shx'));
    server = await startServer({ dataDir: dir });
    const response = await get({ file: 'squares', fid: '2.1', format: 'png' });
    expect(response.status).toBe(200);
    expect(decodePng(new Uint8Array(await response.arrayBuffer())).pixel(320, 240)).toEqual([211, 211, 211, 255]);
  });
});

describe('files changed on disk', () => {
  it('are served fresh without a restart: added, replaced and removed', async () => {
    const dir = writeFixtures();
    server = await startServer({ dataDir: dir });
    expect((await get({ file: 'fresh', fid: 0 })).status).toBe(404);

    const writeFresh = (side: number, count: number) => {
      const writer = createShapefileWriter(join(dir, 'fresh'), { shapeType: ShapeType.Polygon, fields: [] });
      for (let i = 0; i < count; i++) writer.write({ type: 'Polygon', coordinates: [square(0, 0, side)] }, {});
      writer.close();
    };
    writeFresh(10, 1);
    expect((await get({ file: 'fresh', fid: 0 })).status).toBe(200);
    expect((await get({ file: 'fresh', fid: 1 })).status).toBe(404);

    // Replaced at once, maybe within the file system's timestamp tick: the sizes tell the versions apart.
    writeFresh(10, 3);
    expect((await get({ file: 'fresh', fid: 2 })).status).toBe(200);

    for (const file of readdirSync(dir).filter((name) => name.startsWith('fresh.'))) rmSync(join(dir, file));
    expect((await get({ file: 'fresh', fid: 0 })).status).toBe(404);
  });
});

describe('limits', () => {
  it('a key limited to some shapefiles sees the others as missing', async () => {
    server = await startServer({ dataDir: writeFixtures(), keys: [{ key: TEST_KEY, shapefiles: ['Lines'] }] });
    expect((await get({ file: 'lines', fid: 0 })).status).toBe(200);
    const hidden = await get({ file: 'squares', fid: 0 });
    expect(hidden.status).toBe(404);
    expect((await hidden.json()).ErrorDetails).toContain("Shapefile 'squares' was not found.");
  });

  it('a key past its rate limit gets 503 with Retry-After', async () => {
    // A token comes back every 1,000 s: none while the test runs, however slowly.
    server = await startServer({ dataDir: writeFixtures(), keys: [{ key: TEST_KEY, rateLimit: { perSecond: 0.001, burst: 2 } }] });
    expect((await get({ file: 'lines', fid: 0 })).status).toBe(200);
    expect((await get({ file: 'lines', fid: 0 })).status).toBe(200);
    const limited = await get({ file: 'lines', fid: 0 });
    expect(limited.status).toBe(503);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await limited.json()).ErrorDetails).toContain('rate limit');
  });

  it('a full render queue answers 503 with Retry-After, and the server recovers', async () => {
    // Room for two at once: one at work on the one worker, one waiting.
    server = await startServer({
      dataDir: writeFixtures(),
      render: { workers: 1, maxQueue: 1, pngCompression: 1 },
    });
    const heavy = () => get({ file: 'squares', fid: '0,1,2,4,5', size: '1024,1024' });
    // Two admitted, each at work (ten images ahead): the third comes while both are in progress.
    const admitted = [];
    for (let i = 0; i < 2; i++) {
      const atWork = server.nextJob('image');
      admitted.push(heavy());
      await atWork;
    }
    const refused = await heavy();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await Promise.all(admitted)).map((response) => response.status)).toEqual([200, 200]);
    expect((await get({ file: 'squares', fid: 0 })).status).toBe(200);
  });

  it('a heavy request does not hold up a light one sent after it', async () => {
    server = await startServer({ dataDir: writeFixtures(), render: { workers: 2, maxQueue: 256, pngCompression: 1 } });
    const finished: string[] = [];
    const heavyAtWork = server.nextJob('image');
    const heavy = get({ file: 'squares', fid: Array(30).fill(5).join(','), size: '1400,1400' }).then((response) => {
      finished.push('heavy');
      return response;
    });
    await heavyAtWork;
    const light = get({ file: 'lines', fid: 0, size: '64,64' }).then((response) => {
      finished.push('light');
      return response;
    });
    const [heavyResponse, lightResponse] = await Promise.all([heavy, light]);
    expect(lightResponse.status).toBe(200);
    expect(heavyResponse.status).toBe(200);
    expect(finished).toEqual(['light', 'heavy']);
  });

  it('knows no well-known key: shapeshot-demo is refused with keys configured or without, and the start-up key exists only without', async () => {
    const image = (key: string) => `/REST/v1/shapefiles/images?file=lines&fid=0&format=json&key=${key}`;
    server = await startServer({ dataDir: writeFixtures(), keys: [] });
    expect((await fetch(server.url(image('shapeshot-demo')))).status).toBe(401);
    expect((await fetch(server.url(image(server.services.keys.startUpKey()!)))).status).toBe(200);
    await server.close();
    server = await startServer({ dataDir: writeFixtures() });
    expect(server.services.keys.startUpKey()).toBeUndefined();
    expect((await fetch(server.url(image('shapeshot-demo')))).status).toBe(401);
  });
});

