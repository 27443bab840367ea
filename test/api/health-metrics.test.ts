/**
 * /health, /ready and /metrics: without a key, never refused by admission; /metrics in the
 * Prometheus text format, its counters moved by real requests, and no key (nor anything else
 * a client sent) in it.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShapeType } from '../../src/shapefile/types.ts';
import { writeFixtures } from '../support/fixtures.ts';
import { ringXY, writeRawShapefile } from '../support/raw-shapefile.ts';
import { imagesUrl, startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { allTypes, mapUrl, startTileServer, type TileServer } from '../map/support.ts';

const LIMITED_KEY = 'limited-key-9876543210';
const IMAGES = '/rest/v1/shapefiles/images';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * The samples of a Prometheus text exposition; fails the test on any line that is not a
 * comment, a HELP or TYPE line, or a sample of a family whose TYPE was given.
 */
function parseExposition(text: string): Sample[] {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE ([a-zA-Z_:][\w:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1], type[2]);
      continue;
    }
    if (/^# HELP [a-zA-Z_:][\w:]* .*$/.test(line)) continue;
    // prom-client writes NaN as 'Nan' (an event-loop lag not yet measured); Prometheus reads it as Go's ParseFloat does, in any case.
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|[Nn]a[Nn]|[+-]Inf)$/.exec(line);
    expect(sample, line).not.toBeNull();
    const [, name, labelText = '', value] = sample!;
    const family = types.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
    expect(types.has(family), `${name} has a TYPE`).toBe(true);
    const labels: Record<string, string> = {};
    const rest = labelText.replace(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)",?/g, (_, label: string, quoted: string) => {
      labels[label] = quoted.replace(/\\(.)/g, (__, escaped: string) => (escaped === 'n' ? '\n' : escaped));
      return '';
    });
    expect(rest, line).toBe('');
    samples.push({ name, labels, value: Number(value.replace('Inf', 'Infinity')) });
  }
  return samples;
}

async function scrape(server: TestServer): Promise<{ text: string; samples: Sample[] }> {
  const response = await fetch(server.url('/metrics'));
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  return { text, samples: parseExposition(text) };
}

/** The sample of `name` whose labels include `labels`; 0 when there is none yet. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.find((s) => s.name === name && Object.entries(labels).every(([label, value]) => s.labels[label] === value));
  return found?.value ?? 0;
}

/**
 * A polygon of 1.9 million vertices, drawn REPEATS times into one image: one job of seconds
 * on any machine, looking at its cancellation mark as it goes. One job, not one an image:
 * the request is at work on its worker, never between two jobs, whenever its signal fires.
 */
const REPEATS = 8;
function writeSlowShapefile(dir: string): void {
  const jagged = { shapeType: ShapeType.Polygon, xy: ringXY(0, 0, 1000, 1_900_000, 0.05) };
  writeRawShapefile(join(dir, 'jagged'), ShapeType.Polygon, [jagged]);
}
const slowQuery = { file: 'jagged', fid: Array(REPEATS).fill(0).join(','), singleImage: 1, reduceTol: '1e-9', includeHotSpots: 1, format: 'json' };
const slowWorkLimits = { maxImageVertices: REPEATS * 2_000_000 };

let tiles: TileServer;
let server: TestServer;

beforeAll(async () => {
  tiles = await startTileServer();
  const dataDir = writeFixtures(makeTempDir());
  writeSlowShapefile(dataDir);
  server = await startServer({
    dataDir,
    keys: [{ key: TEST_KEY }, { key: LIMITED_KEY, rateLimit: { perSecond: 0.001, burst: 1 } }],
    limits: slowWorkLimits,
    // One worker: a repeated request finds its features in that worker's cache.
    render: { workers: 1, maxQueue: 8, pngCompression: 1 },
    basemaps: { providers: { tiles: { plugin: 'xyz', options: { url: tiles.template, timeoutMs: 2000, retries: 0 } } }, types: allTypes('tiles') },
  });
  await server.services.jobs.ready();
});

afterAll(async () => {
  await server.close();
  await tiles.close();
  removeTempDirs();
});

describe('/health and /ready', () => {
  it('answer without a key', async () => {
    const health = await fetch(server.url('/health'));
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(server.url('/ready'));
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { dataFolder: 'ok', drawingWorkers: 'ok', basemaps: 'ok' } });
  });

  it('/ready names a map type whose latest map failed, until one is drawn again, and stays ready', async () => {
    tiles.mode = 'error';
    try {
      expect((await fetch(mapUrl(server, { file: 'squares', fid: 0, type: 'Aerial', zoom: 5, format: 'png' }))).status).toBe(503);
    } finally {
      tiles.mode = 'ok';
    }
    // A tile server down is down for every instance: the images and /ogc still serve here.
    const failing = await fetch(server.url('/ready'));
    expect(failing.status).toBe(200);
    const body = await failing.json();
    expect(body.status).toBe('ready');
    expect(body.checks).toMatchObject({ dataFolder: 'ok', drawingWorkers: 'ok' });
    expect(body.checks.basemaps).toMatch(/Aerial/);
    expect((await fetch(mapUrl(server, { file: 'squares', fid: 0, type: 'Aerial', zoom: 5, format: 'png' }))).status).toBe(200);
    expect((await (await fetch(server.url('/ready'))).json()).checks.basemaps).toBe('ok');
  });
});

describe('/metrics', () => {
  it('answers without a key, in the Prometheus text format, with the service metrics and the process ones', async () => {
    const { samples } = await scrape(server);
    const names = new Set(samples.map((s) => s.name));
    for (const name of [
      'shapeshot_requests_rejected_total',
      'shapeshot_requests_cancelled_total',
      'shapeshot_render_jobs_waiting',
      'shapeshot_render_jobs_running',
      'shapeshot_render_worker_busy_seconds_total',
      'shapeshot_feature_cache_hits_total',
      'shapeshot_feature_cache_misses_total',
      'shapeshot_tile_cache_hits_total',
      'shapeshot_tile_cache_misses_total',
      'shapeshot_tile_fetch_errors_total',
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(names, name).toContain(name);
    }
  });

  it('counts answers by route pattern and status, refusals by reason, and never shows a key or a path a client sent', async () => {
    const before = (await scrape(server)).samples;
    const requests = (status: string, route = IMAGES) => ({ route, status });
    expect((await fetch(imagesUrl(server, { file: 'squares', fid: 0, format: 'png' }))).status).toBe(200);
    expect((await fetch(imagesUrl(server, { file: 'no-such-file-here', fid: 0 }))).status).toBe(404);
    expect((await fetch(imagesUrl(server, { file: 'squares', fid: 0, size: '0,640' }))).status).toBe(400);
    expect((await fetch(server.url('/no/such/path/here'))).status).toBe(401);
    expect((await fetch(server.url(`/no/such/path/here?key=${TEST_KEY}`))).status).toBe(404);
    const limited = () => fetch(server.url(`${IMAGES}?file=squares&fid=0&format=png&key=${LIMITED_KEY}`));
    expect((await limited()).status).toBe(200);
    expect((await limited()).status).toBe(503);

    const { text, samples } = await scrape(server);
    const moved = (name: string, labels: Record<string, string>) => valueOf(samples, name, labels) - valueOf(before, name, labels);
    expect(moved('shapeshot_http_requests_total', requests('200'))).toBe(2);
    expect(moved('shapeshot_http_requests_total', requests('404'))).toBe(1);
    expect(moved('shapeshot_http_requests_total', requests('400'))).toBe(1);
    expect(moved('shapeshot_http_requests_total', requests('503'))).toBe(1);
    expect(moved('shapeshot_http_requests_total', requests('401', 'unmatched'))).toBe(1);
    expect(moved('shapeshot_http_requests_total', requests('404', 'unmatched'))).toBe(1);
    expect(moved('shapeshot_http_request_duration_seconds_count', { route: IMAGES })).toBe(5);
    const latency = (suffix: string, labels: Record<string, string> = {}) => valueOf(samples, `shapeshot_http_request_duration_seconds_${suffix}`, { route: IMAGES, ...labels });
    expect(latency('bucket', { le: '+Inf' })).toBe(latency('count'));
    expect(latency('bucket', { le: '15' })).toBeLessThanOrEqual(latency('count'));
    expect(latency('sum')).toBeGreaterThan(0);
    expect(moved('shapeshot_requests_rejected_total', { reason: 'rate_limit' })).toBe(1);
    expect(moved('shapeshot_render_worker_busy_seconds_total', {})).toBeGreaterThan(0);

    for (const secret of [TEST_KEY, LIMITED_KEY, 'no-such-file-here', '/no/such/path']) expect(text).not.toContain(secret);
  });

  it('counts a feature-cache hit, on the drawing worker, when a request comes again', async () => {
    const url = imagesUrl(server, { file: 'squares', fid: 4, format: 'png' });
    const before = (await scrape(server)).samples;
    expect((await fetch(url)).status).toBe(200);
    const first = (await scrape(server)).samples;
    expect((await fetch(url)).status).toBe(200);
    const second = (await scrape(server)).samples;
    const hits = (samples: Sample[]) => valueOf(samples, 'shapeshot_feature_cache_hits_total');
    const misses = (samples: Sample[]) => valueOf(samples, 'shapeshot_feature_cache_misses_total');
    expect(misses(first) - misses(before)).toBeGreaterThan(0);
    expect(hits(first) - hits(before)).toBe(0);
    expect(hits(second) - hits(first)).toBeGreaterThan(0);
    expect(misses(second) - misses(first)).toBe(0);
  });

  it('counts tile-cache misses, hits and fetch errors per provider', async () => {
    const provider = { provider: 'tiles' };
    const tileCounts = (samples: Sample[]) => ({
      hits: valueOf(samples, 'shapeshot_tile_cache_hits_total', provider),
      misses: valueOf(samples, 'shapeshot_tile_cache_misses_total', provider),
      errors: valueOf(samples, 'shapeshot_tile_fetch_errors_total', provider),
    });
    const map = (zoom: number) => fetch(mapUrl(server, { file: 'squares', fid: 0, zoom, format: 'png' }));
    const before = tileCounts((await scrape(server)).samples);
    expect((await map(9)).status).toBe(200);
    const fetched = tileCounts((await scrape(server)).samples);
    const tilesOfMap = fetched.misses - before.misses;
    expect(tilesOfMap).toBeGreaterThan(0);
    expect((await map(9)).status).toBe(200);
    const cached = tileCounts((await scrape(server)).samples);
    expect(cached).toEqual({ hits: fetched.hits + tilesOfMap, misses: fetched.misses, errors: before.errors });

    tiles.mode = 'error';
    try {
      expect((await map(11)).status).toBe(503);
    } finally {
      tiles.mode = 'ok';
    }
    expect(tileCounts((await scrape(server)).samples).errors).toBeGreaterThan(before.errors);
    expect((await map(11)).status).toBe(200);
  });

  it('counts a request whose client left (the work stopped) as cancelled: client gone', async () => {
    const cancelled = async () => valueOf((await scrape(server)).samples, 'shapeshot_requests_cancelled_total', { cause: 'client_gone' });
    const before = await cancelled();
    const controller = new AbortController();
    const atWork = server.nextJob('image');
    const answered = server.nextAnswer('file=jagged');
    const request = fetch(imagesUrl(server, slowQuery), { signal: controller.signal }).catch((error: Error) => error);
    await atWork;
    controller.abort();
    expect(await request).toBeInstanceOf(Error);
    // The server notices on its own time that the client left; it has once it answered.
    await answered;
    expect(await cancelled()).toBe(before + 1);
  });
});

describe('a server of its own', () => {
  it('counts a refusal for a full queue (probes still answer), and a request past its time budget as cancelled: time budget', async () => {
    const dataDir = writeFixtures(makeTempDir());
    writeSlowShapefile(dataDir);
    // Room for one request at work, none waiting.
    const late = await startServer({
      dataDir,
      render: { workers: 1, maxQueue: 0 },
      // A budget far longer than a request takes to reach its worker, and far shorter than its work there.
      limits: { requestTimeoutMs: 1000, ...slowWorkLimits },
    });
    try {
      await late.services.jobs.ready();
      const atWork = late.nextJob('image');
      const slow = fetch(imagesUrl(late, slowQuery));
      await atWork;
      expect((await fetch(imagesUrl(late, { file: 'squares', fid: 0, format: 'png' }))).status).toBe(503);
      // Probes are never refused by the render admission.
      expect((await fetch(late.url('/health'))).status).toBe(200);
      expect((await fetch(late.url('/ready'))).status).toBe(200);
      expect((await slow).status).toBe(503);
      const { samples } = await scrape(late);
      expect(valueOf(samples, 'shapeshot_requests_rejected_total', { reason: 'queue_full' })).toBe(1);
      expect(valueOf(samples, 'shapeshot_requests_cancelled_total', { cause: 'time_budget' })).toBe(1);
      expect(valueOf(samples, 'shapeshot_requests_cancelled_total', { cause: 'client_gone' })).toBe(0);
    } finally {
      await late.close();
    }
  });

  it('without metrics has no /metrics; /ready answers 503 naming the data folder once it is gone', async () => {
    const dataDir = writeFixtures(makeTempDir());
    const bare = await startServer({ dataDir, metrics: false });
    try {
      await bare.services.jobs.ready();
      expect((await fetch(bare.url('/metrics'))).status).toBe(401);
      expect((await fetch(bare.url(`/metrics?key=${TEST_KEY}`))).status).toBe(404);
      expect((await fetch(bare.url('/ready'))).status).toBe(200);
      rmSync(dataDir, { recursive: true, force: true });
      const ready = await fetch(bare.url('/ready'));
      expect(ready.status).toBe(503);
      const body = await ready.json();
      expect(body).toMatchObject({ status: 'not ready', checks: { drawingWorkers: 'ok', basemaps: 'ok' } });
      expect(body.checks.dataFolder).toMatch(/ENOENT/);
      expect(JSON.stringify(body)).not.toContain(dataDir);
      expect((await fetch(bare.url('/health'))).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
