/**
 * Hostile files and requests, each made by the test itself: every one answers the status
 * it should, in an envelope naming the problem, and leaves the server serving others.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ShapeType } from '../../src/shapefile/types.ts';
import { square, WGS84_PRJ, writeFixtures } from '../support/fixtures.ts';
import { decodePng, opaqueBounds } from '../support/png.ts';
import { ringXY, writeRawShapefile } from '../support/raw-shapefile.ts';
import { imagesUrl, startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { parseXml } from '../support/xml.ts';
import { allTypes, CHECKERBOARD_PLUGIN, mapUrl } from '../map/support.ts';

afterAll(removeTempDirs);

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function json(url: string, init?: RequestInit) {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** The server still answers a small, valid request. */
async function expectAlive(): Promise<void> {
  expect((await fetch(imagesUrl(server!, { file: 'lines', fid: 0, format: 'png' }))).status).toBe(200);
}

const flat = (positions: number[][]) => Float64Array.from(positions.flat());

describe('absurd coordinates', () => {
  /**
   * A basemap that costs next to nothing: the built-in one takes seconds of CPU for a map of
   * the whole world, and under load the request budget would run out before the answer.
   */
  const basemaps = { providers: { board: { plugin: CHECKERBOARD_PLUGIN, options: {} } }, types: allTypes('board') };

  it('a lon/lat header with a 1e308 bounding box maps over a world of bounded size; a 1e308 vertex is drawn on images and named on maps', async () => {
    const dir = writeFixtures();
    const huge: [number, number, number, number] = [-1e308, -1e308, 1e308, 1e308];
    writeRawShapefile(join(dir, 'absurd_header'), ShapeType.Point, [{ shapeType: ShapeType.Point, xy: flat([[5, 52]]) }], {
      headerBBox: huge,
      prj: WGS84_PRJ,
    });
    writeRawShapefile(
      join(dir, 'absurd'),
      ShapeType.Polygon,
      [{ shapeType: ShapeType.Polygon, xy: flat([[0, 0], [0, 1e308], [1e308, 1e308], [1e308, 0], [0, 0]]) }],
      { headerBBox: huge, prj: WGS84_PRJ },
    );
    server = await startServer({ dataDir: dir, basemaps });
    const queries: Record<string, string | number>[] = [{ file: 'absurd_header' }, { file: 'absurd_header', fid: 0 }, { file: 'absurd_header', zoom: 22 }];
    for (const query of queries) {
      const map = await json(mapUrl(server, { ...query, format: 'json' }));
      expect(map.status, JSON.stringify(map.body)).toBe(200);
    }
    // Longitude 1e308 is nowhere on Earth: the map names the record; the image fits what it is given.
    const map = await json(mapUrl(server, { file: 'absurd', fid: 0, format: 'json' }));
    expect(map.status).toBe(500);
    expect(map.body.ErrorDetails).toMatch(/'absurd\.shp' is damaged: record 0 has coordinates that its coordinate reference system cannot place on Earth/);
    const image = await fetch(imagesUrl(server, { file: 'absurd', fid: 0, format: 'png' }));
    expect(image.status).toBe(200);
    expect(decodePng(new Uint8Array(await image.arrayBuffer())).pixel(320, 240)[3]).toBe(255);
    await expectAlive();
  });

  it('a non-finite coordinate is a damaged record: 500 naming the file and the record, on images and maps', async () => {
    const dir = writeFixtures();
    writeRawShapefile(join(dir, 'nan'), ShapeType.PolyLine, [
      { shapeType: ShapeType.PolyLine, xy: flat([[4, 52], [5, 53]]) },
      { shapeType: ShapeType.PolyLine, xy: flat([[4, 52], [NaN, 53]]), bbox: [4, 52, 5, 53] },
      { shapeType: ShapeType.PolyLine, xy: flat([[4, 52], [Infinity, 53]]), bbox: [4, 52, 5, 53] },
    ], { headerBBox: [4, 52, 5, 53], prj: WGS84_PRJ });
    server = await startServer({ dataDir: dir, basemaps });
    for (const fid of [1, 2]) {
      const image = await json(imagesUrl(server, { file: 'nan', fid, format: 'json' }));
      expect(image.status).toBe(500);
      expect(image.body.ErrorDetails).toMatch(new RegExp(`'nan\\.shp' is damaged: record ${fid} has a coordinate that is not a finite number`));
    }
    const map = await json(mapUrl(server, { file: 'nan', format: 'json' }));
    expect(map.status).toBe(500);
    expect(map.body.ErrorDetails).toMatch(/'nan\.shp' is damaged: record 1 /);
    expect((await json(imagesUrl(server, { file: 'nan', fid: 0, format: 'json' }))).status).toBe(200);
  });
});

describe('budgets before work', () => {
  it('refuses with 400 before decoding an images request whose records hold more vertices than limits.maxImageVertices', async () => {
    const dir = writeFixtures();
    writeRawShapefile(join(dir, 'big'), ShapeType.Polygon, [{ shapeType: ShapeType.Polygon, xy: ringXY(0, 0, 1000, 300_000) }]);
    server = await startServer({ dataDir: dir, limits: { maxImageVertices: 250_000 } });
    const refused = await json(imagesUrl(server, { file: 'big', fid: 0, format: 'json' }));
    expect(refused.status).toBe(400);
    expect(refused.body.ErrorDetails).toMatch(/hold up to 300001 vertices; at most 250000 \(limits\.maxImageVertices\)/);
    // Listed twice, a record counts twice: the request draws it twice.
    const twice = await json(imagesUrl(server, { file: 'lines', fid: '0,0,0', format: 'json' }));
    expect(twice.status).toBe(200);
    expect(server.services.jobs.stats.cancelled).toBe(0);
  });

  it('a .shx whose record length lies past the end of the .shp is damage, found before the .shp is read', async () => {
    const dir = writeFixtures();
    const base = join(dir, 'liar');
    writeRawShapefile(base, ShapeType.Polygon, [{ shapeType: ShapeType.Polygon, xy: ringXY(0, 0, 10, 8) }]);
    const shx = Buffer.from(await (await import('node:fs/promises')).readFile(`${base}.shx`));
    shx.writeInt32BE(0x3fffffff, 104);
    writeFileSync(`${base}.shx`, shx);
    server = await startServer({ dataDir: dir });
    const answer = await json(imagesUrl(server, { file: 'liar', fid: 0, format: 'json' }));
    expect(answer.status).toBe(500);
    expect(answer.body.ErrorDetails).toMatch(/'liar\.(shp|shx)' is damaged: record 0/);
  });

  it('refuses a record with more rings than limits.maxRings with 400 naming the limit', async () => {
    const dir = writeFixtures();
    const rings = Array.from({ length: 50 }, (_, i) => ringXY(i * 10, 0, 2, 4));
    const xy = new Float64Array(rings.reduce((sum, ring) => sum + ring.length, 0));
    const parts: number[] = [];
    rings.reduce((offset, ring) => (parts.push(offset / 2), xy.set(ring, offset), offset + ring.length), 0);
    writeRawShapefile(join(dir, 'islands'), ShapeType.Polygon, [{ shapeType: ShapeType.Polygon, xy, parts }]);
    server = await startServer({ dataDir: dir, limits: { maxRings: 40 } });
    const answer = await json(imagesUrl(server, { file: 'islands', fid: 0, format: 'json' }));
    expect(answer.status).toBe(400);
    expect(answer.body.ErrorDetails).toBe('Feature 0 has 50 rings; at most 40 (limits.maxRings) can be drawn.');
  });

  // That assembling them costs no quadratic work is counted in steps, not time, in
  // test/geometry/assemble-rings.test.ts; here the same record is drawn through the API.
  it('draws a record of 20,000 outer rings and 20,000 holes lying outside them, every ring filled', async () => {
    const dir = writeFixtures();
    const count = 20_000;
    const ringVertices = 5;
    const xy = new Float64Array(2 * ringVertices * 2 * count);
    const parts: number[] = [];
    for (let i = 0; i < 2 * count; i++) {
      const column = i % 200;
      const row = Math.floor(i / 200);
      // Outer rings clockwise; holes (every second ring) counter-clockwise, each in a cell of its own.
      const ring = square(column * 10, row * 10, 5);
      parts.push(i * ringVertices);
      xy.set((i % 2 === 1 ? [...ring].reverse() : ring).flat(), 2 * i * ringVertices);
    }
    writeRawShapefile(join(dir, 'rings'), ShapeType.Polygon, [{ shapeType: ShapeType.Polygon, xy, parts }]);
    server = await startServer({ dataDir: dir });
    const answer = await fetch(imagesUrl(server, { file: 'rings', fid: '0.39999', format: 'png' }));
    expect(answer.status).toBe(200);
    // Every ring is an outer ring of its own (each "hole" lies outside the others): the grid of
    // 200 × 200 cells is painted from corner to corner, the first ring's cell and the last one's.
    const image = decodePng(new Uint8Array(await answer.arrayBuffer()));
    const painted = opaqueBounds(image)!;
    const [width, height] = [painted.xmax - painted.xmin, painted.ymax - painted.ymin];
    expect(Math.max(width / image.width, height / image.height)).toBeGreaterThan(0.9);
    expect(width / height).toBeCloseTo(1, 1);
  });
});

describe('entangled rings', () => {
  it("refuses with 400 a record whose rings GDAL's rule would test against each other millions of times", async () => {
    // 5,000 clockwise triangles whose boxes all hold one corner where 5,000 small
    // counter-clockwise squares lie outside every triangle: each square is tried against
    // every triangle (GDAL's rule has no shortcut for these "bays").
    const dir = writeFixtures();
    const rings: number[][][] = [];
    for (let i = 0; i < 5000; i++) rings.push([[0, 0], [0, 100 + i * 0.01], [100 + i * 0.01, 0], [0, 0]]);
    for (let i = 0; i < 5000; i++) {
      const x = 80 + (i % 70) * 0.2;
      const y = 80 + Math.floor(i / 70) * 0.2;
      rings.push([[x, y], [x + 0.1, y], [x + 0.1, y + 0.1], [x, y + 0.1], [x, y]]);
    }
    const parts: number[] = [];
    rings.reduce((start, ring) => (parts.push(start), start + ring.length), 0);
    writeRawShapefile(join(dir, 'bays'), ShapeType.Polygon, [{ shapeType: ShapeType.Polygon, xy: flat(rings.flat()), parts }]);
    server = await startServer({ dataDir: dir });
    const answer = await json(imagesUrl(server, { file: 'bays', fid: 0, format: 'json' }));
    expect(answer.status).toBe(400);
    expect(answer.body.ErrorDetails).toMatch(/^Feature 0's rings lie so entangled/);
    await expectAlive();
  });
});

describe('the event loop stays free', () => {
  /** A polygon of `vertices` vertices, each 50 pixels from the one before at 1024 × 1024: far denser than its pixels. */
  const writeJagged = (vertices: number) => {
    const dir = writeFixtures();
    writeRawShapefile(join(dir, 'jagged'), ShapeType.Polygon, [
      { shapeType: ShapeType.Polygon, xy: ringXY(0, 0, 1000, vertices, 0.05) },
    ]);
    return dir;
  };

  it('refuses to outline a 1.5-million-vertex jagged polygon, whose stroke would hold a worker for half a minute, before drawing it', async () => {
    server = await startServer({ dataDir: writeJagged(1_500_000) });
    const answer = await json(imagesUrl(server, { file: 'jagged', fid: 0, size: '1024,1024', format: 'json' }));
    expect(answer.status).toBe(400);
    expect(answer.body.ErrorDetails).toMatch(/^The picture's outlines and edges would take \d+ steps to draw; at most 50000000 \(limits\.maxDrawingWork\)/);
    await expectAlive();
  });

  it('answers a small request while such a polygon of 600,000 vertices, filled alone, is drawn with its hot spots', async () => {
    server = await startServer({ dataDir: writeJagged(600_000), render: { workers: 2, maxQueue: 8, pngCompression: 1 } });
    const finished: string[] = [];
    const heavyAtWork = server.nextJob('image');
    const heavy = fetch(imagesUrl(server, { file: 'jagged', fid: 0, lineWidth: 0, includeHotSpots: 1, size: '1024,1024', format: 'json' })).then(
      async (response) => {
        finished.push('heavy');
        return { status: response.status, body: await response.json() };
      },
    );
    await heavyAtWork;
    const probe = fetch(imagesUrl(server, { file: 'lines', fid: 0, size: '64,64', format: 'png' })).then((response) => {
      finished.push('probe');
      return response.status;
    });
    const [heavyAnswer, probeStatus] = await Promise.all([heavy, probe]);
    expect(probeStatus).toBe(200);
    expect(heavyAnswer.status, JSON.stringify(heavyAnswer.body).slice(0, 300)).toBe(200);
    expect(finished).toEqual(['probe', 'heavy']);
    // The hot spot is a bounded polygon, not the million vertices of the ring.
    const [spot] = heavyAnswer.body.Resource.ShapefileFeatureImages[0].FeatureHotSpots;
    expect(spot.Coords.split(',').length / 2).toBeLessThanOrEqual(1000);
  });
});

describe('cancellation', () => {
  /** Times the 1.9-million-vertex zigzag is drawn into one image: seconds of work in one job, however fast the machine. */
  const REPEATS = 8;

  /**
   * One job of seconds (decoding, simplifying and reducing a 1.9-million-vertex zigzag,
   * REPEATS times into one image), which looks at its cancellation mark every few thousand
   * vertices, on a server of one worker. One job, not one an image: the request is then at
   * work on a worker, never between two jobs, whenever its signal fires.
   */
  async function serverWithSlowWork(config: { limits?: Record<string, unknown> } = {}) {
    const dir = writeFixtures();
    writeRawShapefile(join(dir, 'jagged'), ShapeType.Polygon, [
      { shapeType: ShapeType.Polygon, xy: ringXY(0, 0, 1000, 1_900_000, 0.05) },
    ]);
    server = await startServer({
      dataDir: dir,
      render: { workers: 1, maxQueue: 8, pngCompression: 1 },
      limits: { maxImageVertices: REPEATS * 2_000_000, ...config.limits },
    });
    await server.services.jobs.ready();
    const fid = Array(REPEATS).fill(0).join(',');
    return imagesUrl(server, { file: 'jagged', fid, singleImage: 1, reduceTol: '1e-9', includeHotSpots: 1, format: 'json' });
  }

  it('stops the work of a request whose client hangs up', async () => {
    const url = new URL(await serverWithSlowWork());
    const atWork = server!.nextJob('image');
    const answered = server!.nextAnswer('file=jagged');
    const socket = connect(Number(url.port), url.hostname);
    socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
    await atWork;
    socket.destroy();
    await answered;
    // The one worker stops the job it was on, at its next checkpoint, and takes the next request.
    await expectAlive();
    expect(server!.services.jobs.stats).toMatchObject({ cancelled: 1, running: 0, waiting: 0 });
  });

  it('stops the work of a request past its time budget, and answers 503 with Retry-After', async () => {
    // A budget far longer than a request takes to reach its worker, and far shorter than its work there.
    const url = await serverWithSlowWork({ limits: { requestTimeoutMs: 1000 } });
    const atWork = server!.nextJob('image');
    const answer = json(url);
    await atWork;
    const late = await answer;
    expect(late.status).toBe(503);
    expect(late.headers.get('retry-after')).toBeTruthy();
    expect(late.body.ErrorDetails).toMatch(/could not be answered within 1000 ms \(limits.requestTimeoutMs\)/);
    await expectAlive();
    expect(server!.services.jobs.stats.cancelled).toBe(1);
  });
});

describe('overload', () => {
  it('refuses what it cannot admit with 503 before reading anything, and recovers', async () => {
    // Room for three at once: one at work on the one worker, two waiting.
    server = await startServer({ dataDir: writeFixtures(), render: { workers: 1, maxQueue: 2, pngCompression: 1 } });
    const heavy = (file: string) => json(imagesUrl(server!, { file, fid: '0,1,2,4,5', size: '1024,1024', format: 'json' }));
    // Three admitted, each at work (fifteen images ahead): the rest of the burst comes while all three are in progress.
    const admitted = [];
    for (let i = 0; i < 3; i++) {
      const atWork = server.nextJob('image');
      admitted.push(heavy('squares'));
      await atWork;
    }
    // Every fifth names a shapefile that does not exist: refused before it is looked up, it is a 503 too.
    const burst = await Promise.all(Array.from({ length: 37 }, (_, i) => heavy(i % 5 === 4 ? 'nowhere' : 'squares')));
    for (const refused of burst) {
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.body.ErrorDetails).toBe('The service is busy; retry shortly.');
    }
    expect((await Promise.all(admitted)).map((answer) => answer.status)).toEqual([200, 200, 200]);
    await expectAlive();
  });

  it("holds a key to its configured number of requests at once", async () => {
    server = await startServer({ dataDir: writeFixtures(), keys: [{ key: TEST_KEY, maxConcurrent: 1 }] });
    const firstAtWork = server.nextJob('image');
    const answer = json(imagesUrl(server, { file: 'squares', fid: '0,1,2,4,5', size: '1024,1024', format: 'json' }));
    // Sent once the first is at work (five images: it is still at work when the second comes).
    await firstAtWork;
    const second = await json(imagesUrl(server, { file: 'squares', fid: 0, format: 'json' }));
    const first = await answer;
    expect(first.status).toBe(200);
    expect(second.status).toBe(503);
    expect(second.body.ErrorDetails).toMatch(/This access key has 1 requests in progress/);
  });
});

describe('symlinks', () => {
  it('never serves a file outside the data folder, even one swapped in between the check and the open', async () => {
    const outside = makeTempDir('shapeshot-outside-');
    const dir = writeFixtures();
    // Inside: a square; outside: a triangle with the same box and record size.
    const inside = flat([[0, 0], [0, 10], [10, 10], [10, 0], [0, 0]]);
    const triangle = flat([[0, 0], [0, 10], [10, 0], [0, 0], [0, 0]]);
    writeRawShapefile(join(dir, 'swap'), ShapeType.Polygon, [{ shapeType: ShapeType.Polygon, xy: inside }]);
    writeRawShapefile(join(outside, 'secret'), ShapeType.Polygon, [{ shapeType: ShapeType.Polygon, xy: triangle }]);
    mkdirSync(join(dir, 'stash'));
    copyFileSync(join(dir, 'swap.shp'), join(dir, 'stash', 'inside.shp'));
    const flipper = spawn(process.execPath, [
      '-e',
      `const fs = require('node:fs');
       const [target, outside, inside, tmp] = process.argv.slice(1);
       for (;;) {
         fs.rmSync(tmp, { force: true });
         fs.symlinkSync(outside, tmp);
         fs.renameSync(tmp, target);
         fs.copyFileSync(inside, tmp);
         fs.renameSync(tmp, target);
       }`,
      join(dir, 'swap.shp'),
      join(outside, 'secret.shp'),
      join(dir, 'stash', 'inside.shp'),
      join(dir, 'stash', 'next'),
    ]);
    try {
      server = await startServer({ dataDir: dir });
      const statuses = new Map<number, number>();
      for (let i = 0; i < 150; i++) {
        const response = await fetch(imagesUrl(server, { file: 'swap', fid: 0, format: 'png', noCache: 1 }));
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status !== 200) continue;
        // The triangle leaves the square's top-right corner empty.
        expect(decodePng(new Uint8Array(await response.arrayBuffer())).pixel(520, 40)[3]).toBe(255);
      }
      expect(statuses.get(200)).toBeGreaterThan(0);
      expect([...statuses.keys()].every((status) => status === 200 || status === 404)).toBe(true);
    } finally {
      flipper.kill();
    }
  });
});

describe('what answers never hold', () => {
  it('an XML envelope stays well-formed whatever a request sent: forbidden characters become U+FFFD', async () => {
    server = await startServer({ dataDir: writeFixtures() });
    const response = await fetch(server.url(`/REST/v1/shapefiles/images?file=a%00b%01c%EF%BF%BE&fid=0&key=${TEST_KEY}`));
    expect(response.status).toBe(404);
    const text = await response.text();
    expect(text).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
    const details = parseXml(text).children.find((element) => element.name === 'ErrorDetails')!.text;
    expect(details).toBe("Shapefile 'a\uFFFDb\uFFFDc\uFFFD' was not found.");
  });

  it('no key, however the parameter is repeated, in an answer or the log', async () => {
    server = await startServer({ dataDir: writeFixtures(), logLevel: 'info' });
    const other = 'another-secret-4711';
    for (const query of [`key=${TEST_KEY}&key=${other}`, `key=${other}&key=${TEST_KEY}`, `KEY=${TEST_KEY}&key=${other}`]) {
      const response = await fetch(server.url(`/REST/v1/shapefiles/images?file=lines&fid=0&format=json&${query}`));
      expect([400, 401]).toContain(response.status);
      const text = await response.text();
      expect(text).not.toContain(TEST_KEY);
      expect(text).not.toContain(other);
    }
    expect(server.log.length).toBeGreaterThan(0);
    for (const line of server.log) {
      expect(line).not.toContain(TEST_KEY);
      expect(line).not.toContain(other);
    }
  });

  it('echoes at most 100 characters of a value', async () => {
    server = await startServer({ dataDir: writeFixtures() });
    const answer = await json(imagesUrl(server, { file: 'x'.repeat(5000), fid: 0, format: 'json' }));
    expect(answer.status).toBe(404);
    expect(answer.body.ErrorDetails.length).toBeLessThan(160);
  });

  it('a reduceTol of 10,000 digits is refused, naming the parameter', async () => {
    server = await startServer({ dataDir: writeFixtures() });
    const answer = await json(imagesUrl(server, { file: 'lines', fid: 0, reduceTol: `${'1'.repeat(10_000)}x`, format: 'json' }));
    expect(answer.status).toBe(400);
    expect(answer.body.ErrorDetails).toMatch(/^Parameter 'reduceTol' must be a number of at least 0; got '1{99}…'\.$/);
  });
});

describe('oversized requests', () => {
  it('answer 431 for headers past 16 KiB and 414 for a longer URL, in an envelope with a TraceId', async () => {
    server = await startServer({ dataDir: writeFixtures() });
    const headers = await rawRequest(server, `GET /REST/v1/shapefiles/images?file=lines&fid=0&format=json&key=${TEST_KEY} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(headers.status).toBe(431);
    expect(headers.headers['x-trace-id']).toMatch(/^shapeshot\/\d{8}T\d{6}Z\/[0-9a-f]{16}$/);
    expect(JSON.parse(headers.body)).toMatchObject({ StatusCode: 431, StatusDescription: 'Request Header Fields Too Large', Resource: null });
    // Every format that answers bytes answers its errors in JSON, as the app's own errors do.
    const svg = await rawRequest(server, `GET /REST/v1/shapefiles/images?file=lines&fid=0&FORMAT=SVG&key=${TEST_KEY} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(JSON.parse(svg.body)).toMatchObject({ StatusCode: 431 });

    const ids = Array.from({ length: 10_000 }, (_, i) => i).join(',');
    const url = await rawRequest(server, `GET /REST/v1/shapefiles/images?file=lines&fid=${ids}&key=${TEST_KEY} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(url.status).toBe(414);
    const envelope = parseXml(url.body);
    expect(envelope.children.find((element) => element.name === 'StatusCode')!.text).toBe('414');
    expect(envelope.children.find((element) => element.name === 'TraceId')!.text).toBe(url.headers['x-trace-id']);
    await expectAlive();
  });

  it('answer HEAD with the length of the envelope and no body, which a client would read as the next answer', async () => {
    server = await startServer({ dataDir: writeFixtures() });
    const head = await rawRequest(server, `HEAD /REST/v1/shapefiles/images?file=lines&fid=0&key=${TEST_KEY} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(head.status).toBe(431);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    expect(head.body).toBe('');
  });
});

/** Sends `request` as it is on a socket of its own and reads the answer. */
async function rawRequest(target: TestServer, request: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(target.url('/'));
  const socket = connect(Number(port), hostname);
  socket.write(request);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const [head, body] = text.split('\r\n\r\n', 2);
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}
