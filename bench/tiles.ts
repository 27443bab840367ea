/**
 * npm run bench's tiles section (issue 32, "Performance"): random XYZ tiles at z 12–16 over the
 * peer kit's 200,000-polygon RD New file at c=8, PNG and MVT, from our server and from
 * MapServer 8's tile mode (FastCGI behind nginx, the same file with its .qix, the same style:
 * bench/mapserver-tiles.ts) in one run, in alternating order; and ours on the same generator's
 * 2,000-polygon file, whose tiles are mostly empty on the kit's list, so also on the tiles of
 * that list which hold a feature of it (and the big file on those same tiles, to compare like
 * with like). Before the load, a few answers of each are checked (200, a 256-px PNG or a vector
 * tile, what they hold, ours against MapServer's). Data and lists: bench/tile-data.ts.
 */
import { VectorTile } from '@mapbox/vector-tile';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { PbfReader } from 'pbf';
import { decodePng, type DecodedPng } from '../test/support/png.ts';
import { maskIoU, maskIoUWithin, paintedMask } from '../test/support/tiles.ts';
import { load } from './load.ts';
import { startMapServerTiles, type MapServerTiles } from './mapserver-tiles.ts';
import { serverCommand, startServerProcess, type RuntimeName, type ServerProcess } from './server-process.ts';
import { BIG_FEATURES, BIG_LAYER, ensureTileData, SMALL_FEATURES, SMALL_LAYER, type Tile } from './tile-data.ts';

export interface TilesBenchOptions {
  runtime: RuntimeName;
  cacheDir: string;
  /** The peer kit (make-data.py, tools/, mapserver/tiles.map). */
  kitDir: string;
  key: string;
  seconds: number;
  warmSeconds: number;
  /** Each measurement once per round, the order reversed every other round. */
  rounds: number;
  log: (line: string) => void;
}

export interface TilesBenchReport {
  setup: string[];
  checks: string[];
  rows: string[][];
  ratios: string[][];
}

export const TILES_HEADER = ['server', 'tile', 'file', 'tiles', 'req/s', '200/s', 'p50 ms', 'p99 ms', 'CPU ms/req', 'failed', '200/s by round'];
export const TILES_RATIO_HEADER = ['comparison', '200/s', 'p50', 'p99', 'target'];

/** The Debian packages the section runs (mapserv and shptree, nginx, the kit's Python tools). */
const PACKAGES = ['mapserver-bin', 'nginx-light', 'python3-gdal', 'python3-numpy'];
const CONNECTIONS = 8;
/** Answers of each measured row fetched and looked at before the load. */
const SAMPLES = 8;
/** How long the statuses are counted again after a timed run that had failures (wrk counts them, but says not what they were). */
const CENSUS_SECONDS = 2;
const MEDIA_TYPES = { png: 'image/png', mvt: 'application/vnd.mapbox-vector-tile' };

type TileFormat = keyof typeof MEDIA_TYPES;

interface Target {
  origin: string;
  cpuMs(): number;
}

/** One row of the table: a server, a tile format, a file and a tile list. */
interface Contender {
  server: 'ours' | 'MapServer';
  format: TileFormat;
  file: 'big' | 'small';
  list: 'all' | 'held';
  target: Target;
  path(tile: Tile): string;
  tiles: Tile[];
}

interface Measured {
  /** Every answer (wrk's count), and the 200s alone: a refusal (503) is quick and would flatter req/s. */
  perSecond: number[];
  okPerSecond: number[];
  p50Ms: number[];
  p99Ms: number[];
  cpuMsPerTile: number[];
  failed: number;
}

export async function runTilesBench(options: TilesBenchOptions): Promise<TilesBenchReport> {
  const { runtime, cacheDir, kitDir, key, seconds, warmSeconds, rounds, log } = options;
  requirePackages();
  if (!existsSync(join(kitDir, 'make-data.py')) || !existsSync(join(kitDir, 'mapserver', 'tiles.map'))) {
    throw new Error(
      `The tiles section needs the peer kit (make-data.py, tools/make_tiles.py, tools/fcgi_pool.py, mapserver/tiles.map) at ${kitDir}: ` +
        'copy ../shared/bench-peers there or set BENCH_PEERS_KIT to its folder.',
    );
  }
  const dir = join(cacheDir, 'tiles');
  const data = ensureTileData(kitDir, dir, log);
  readThrough(data.serveDir);

  const stops: (() => Promise<void>)[] = [];
  const stopAll = () => Promise.allSettled(stops.splice(0).map((stop) => stop()));
  // Ctrl-C or a kill while measuring: the servers are stopped before this process goes.
  const onSignal = () => void stopAll().then(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const oursPath = (layer: string, format: TileFormat) => ({ z, x, y }: Tile) => `/REST/v1/shapefiles/tiles/${layer}/${z}/${x}/${y}.${format}?key=${key}`;
    const ours: ServerProcess = await startServerProcess(
      serverCommand(runtime),
      { SHAPESHOT_DATA: data.serveDir, SHAPESHOT_KEYS: key, SHAPESHOT_HOST: '127.0.0.1', SHAPESHOT_PORT: '0', SHAPESHOT_LOG_LEVEL: 'warn' },
      oursPath(BIG_LAYER, 'png')(data.tiles[0]),
    );
    stops.push(() => ours.stop());
    const fcgiProcesses = 2 * availableParallelism();
    const mapserver: MapServerTiles = await startMapServerTiles({ kitDir, dataDir: data.serveDir, runDir: join(dir, 'run'), processes: fcgiProcesses, probe: data.tiles[0] });
    stops.push(() => mapserver.stop());

    const contenders: Contender[] = [];
    for (const format of ['png', 'mvt'] as const) contenders.push({ server: 'ours', format, file: 'big', list: 'all', target: ours, path: oursPath(BIG_LAYER, format), tiles: data.tiles });
    for (const format of ['png', 'mvt'] as const) {
      contenders.push({ server: 'MapServer', format, file: 'big', list: 'all', target: mapserver, path: (tile) => mapserver.path(tile, format), tiles: data.tiles });
    }
    for (const list of ['all', 'held'] as const) {
      const tiles = list === 'all' ? data.tiles : data.heldTiles;
      for (const format of ['png', 'mvt'] as const) contenders.push({ server: 'ours', format, file: 'small', list, target: ours, path: oursPath(SMALL_LAYER, format), tiles });
    }
    for (const format of ['png', 'mvt'] as const) contenders.push({ server: 'ours', format, file: 'big', list: 'held', target: ours, path: oursPath(BIG_LAYER, format), tiles: data.heldTiles });

    const { counts } = data;
    const setup = [
      `data: ${data.serveDir}: ${BIG_LAYER}.shp (${BIG_FEATURES.toLocaleString('en')} polygons, RD New) and ${SMALL_LAYER}.shp (${SMALL_FEATURES.toLocaleString('en')}), ` +
        "each with its .qix, from the peer kit's make-data.py",
      `tiles: the kit's list (make_tiles.py: ${counts.tiles} tiles, z 12–16, lon 3.4–7.2, lat 50.8–53.5, seed 7); 'held': the ${counts.held} of them ` +
        `that meet a feature of the ${SMALL_FEATURES.toLocaleString('en')}-polygon file (GEOS, in EPSG:3857)`,
      `what a tile meets, mean: the small file's features ${counts.smallFeaturesPerTile} (all tiles) and ${counts.smallFeaturesPerHeldTile} (held); ` +
        `the big file's record boxes ${counts.bigBoxesPerTile} (all) and ${counts.bigBoxesPerHeldTile} (held)`,
      `ours: ${runtime}, ${ours.origin}; MapServer: ${mapserverVersion()}, tile mode (tilemode=gmap) at ${mapserver.origin}: ` +
        `nginx (1 worker) → FastCGI → ${fcgiProcesses} mapserv, the kit's tiles.map`,
      `load: ${CONNECTIONS} connections, a random tile of the list per request, ${warmSeconds} s warm-up then ${seconds} s, ${rounds} round(s), order reversed every other round`,
      'req/s counts every answer, 200/s the tiles alone, failed the rest (wrk: not 2xx/3xx, or no answer); p50/p99 are of every answer, ' +
        'and a refusal (503) is quick: read them beside failed. CPU: the server processes (ours; nginx and every mapserv), per answer',
    ];

    const checks: string[] = [];
    for (const contender of contenders) checks.push(await checkAnswers(contender));
    checks.push(...(await compareWithMapServer(contenders)));

    const measured = new Map<Contender, Measured>(contenders.map((contender) => [contender, { perSecond: [], okPerSecond: [], p50Ms: [], p99Ms: [], cpuMsPerTile: [], failed: 0 }]));
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 === 1 ? contenders : [...contenders].reverse();
      for (const contender of order) {
        const paths = contender.tiles.map(contender.path);
        const { origin } = contender.target;
        await load({ origin, paths, connections: CONNECTIONS, seconds: warmSeconds });
        const cpuBefore = contender.target.cpuMs();
        const result = await load({ origin, paths, connections: CONNECTIONS, seconds });
        const cpuMsPerTile = (contender.target.cpuMs() - cpuBefore) / Math.max(1, result.requests);
        const row = measured.get(contender)!;
        row.perSecond.push(result.perSecond);
        row.okPerSecond.push((result.perSecond * (result.requests - result.failed)) / Math.max(1, result.requests));
        row.p50Ms.push(result.p50Ms);
        row.p99Ms.push(result.p99Ms);
        row.cpuMsPerTile.push(cpuMsPerTile);
        row.failed += result.failed;
        log(
          `tiles round ${round}: ${label(contender)}: ${result.perSecond.toFixed(1)} req/s, p50 ${result.p50Ms.toFixed(1)} ms, ` +
            `p99 ${result.p99Ms.toFixed(1)} ms, CPU ${cpuMsPerTile.toFixed(2)} ms/request, failed ${result.failed}`,
        );
        if (result.failed > 0) log(`  the same load again for ${CENSUS_SECONDS} s, answers by status: ${await statusCensus(contender)}`);
      }
    }

    const rows = contenders.map((contender) => {
      const row = measured.get(contender)!;
      return [
        contender.server,
        contender.format,
        contender.file === 'big' ? BIG_FEATURES.toLocaleString('en') : SMALL_FEATURES.toLocaleString('en'),
        `${contender.list} (${contender.tiles.length})`,
        mean(row.perSecond).toFixed(1),
        mean(row.okPerSecond).toFixed(1),
        mean(row.p50Ms).toFixed(1),
        mean(row.p99Ms).toFixed(1),
        mean(row.cpuMsPerTile).toFixed(2),
        String(row.failed),
        row.okPerSecond.map((value) => value.toFixed(1)).join(' / '),
      ];
    });
    const find = (server: Contender['server'], format: TileFormat, file: Contender['file'], list: Contender['list']) =>
      measured.get(contenders.find((c) => c.server === server && c.format === format && c.file === file && c.list === list)!)!;
    const ratios: string[][] = [];
    for (const format of ['png', 'mvt'] as const) {
      ratios.push(ratio(`ours / MapServer, ${format}`, find('ours', format, 'big', 'all'), find('MapServer', format, 'big', 'all'), '200/s ≥ 2 (and ours p99 ≤ 50 ms)'));
    }
    for (const list of ['all', 'held'] as const) {
      for (const format of ['png', 'mvt'] as const) {
        ratios.push(ratio(`small / big, ${format}, ${list} tiles`, find('ours', format, 'small', list), find('ours', format, 'big', list), list === 'held' ? '200/s within 0.8–1.2' : ''));
      }
    }
    return { setup, checks, rows, ratios };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await stopAll();
  }
}

function requirePackages(): void {
  const missing = PACKAGES.filter((name) => {
    const status = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
    return status.status !== 0 || !status.stdout.includes('install ok installed');
  });
  if (missing.length > 0) {
    throw new Error(`The tiles section needs the Debian packages ${missing.join(', ')}, which are not installed: apt-get install -y ${missing.join(' ')}`);
  }
}

function mapserverVersion(): string {
  return /MapServer version (\S+)/.exec(spawnSync('/usr/bin/mapserv', ['-v'], { encoding: 'utf8' }).stdout)?.[1] ?? 'MapServer';
}

/** The data files read once, so that the first server measured does not pay the disk for the others. */
function readThrough(folder: string): void {
  const buffer = Buffer.alloc(16 * 1024 * 1024);
  for (const name of readdirSync(folder)) {
    const fd = openSync(join(folder, name), 'r');
    try {
      while (readSync(fd, buffer, 0, buffer.length, null) > 0);
    } finally {
      closeSync(fd);
    }
  }
}

function label({ server, format, file, list }: Contender): string {
  return `${server} ${format} ${file === 'big' ? BIG_FEATURES : SMALL_FEATURES} ${list}`;
}

/** Tiles spread over a list: every (length / SAMPLES)-th. */
function sampleTiles(tiles: Tile[]): Tile[] {
  const step = Math.max(1, Math.floor(tiles.length / SAMPLES));
  return Array.from({ length: Math.min(SAMPLES, tiles.length) }, (_, i) => tiles[i * step]);
}

interface Answer {
  url: string;
  status: number;
  type: string;
  bytes: Uint8Array;
}

async function fetchAnswer(contender: Contender, tile: Tile): Promise<Answer> {
  const url = contender.target.origin + contender.path(tile);
  const response = await fetch(url);
  return { url, status: response.status, type: response.headers.get('content-type') ?? '', bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** What an answer that is not the tile it should be says: the request, its status, type and body. */
function problemOf(answer: Answer, format: TileFormat): string | undefined {
  const body = () => new TextDecoder().decode(answer.bytes.slice(0, 600));
  if (answer.status !== 200 || !answer.type.startsWith(MEDIA_TYPES[format])) return `GET ${answer.url} → ${answer.status} ${answer.type}: ${body()}`;
  try {
    if (format === 'png') {
      const png = decodePng(answer.bytes);
      if (png.width !== 256 || png.height !== 256) return `GET ${answer.url} → a ${png.width}×${png.height} PNG, not 256×256`;
    } else {
      new VectorTile(new PbfReader(answer.bytes));
    }
  } catch (error) {
    return `GET ${answer.url} → 200 ${answer.type}, ${answer.bytes.length} bytes that do not decode (${String(error)}): ${body()}`;
  }
  return undefined;
}

/** Painted pixels of a PNG tile, or features of a vector tile (all its layers). */
function contentOf(answer: Answer, format: TileFormat): number {
  if (format === 'png') return paintedMask(decodePng(answer.bytes)).reduce((sum, pixel) => sum + pixel, 0);
  const tile = new VectorTile(new PbfReader(answer.bytes));
  return Object.values(tile.layers).reduce((sum, layer) => sum + layer.length, 0);
}

async function checkAnswers(contender: Contender): Promise<string> {
  const problems: string[] = [];
  const contents: number[] = [];
  const samples = sampleTiles(contender.tiles);
  for (const tile of samples) {
    const answer = await fetchAnswer(contender, tile);
    const problem = problemOf(answer, contender.format);
    if (problem) problems.push(problem);
    else contents.push(contentOf(answer, contender.format));
  }
  const what = contender.format === 'png' ? '256×256 PNGs, painted pixels' : 'vector tiles, features';
  const summary = `${label(contender)}: ${contents.length}/${samples.length} answers 200 ${MEDIA_TYPES[contender.format]}, ${what} per tile ${contents.join(', ')}`;
  return [summary, ...problems.map((problem) => `  FAILED ${problem}`)].join('\n');
}

/** Ours against MapServer's on the same sample tiles of the big file: PNG masks' IoU, vector tiles' feature counts. */
async function compareWithMapServer(contenders: Contender[]): Promise<string[]> {
  const lines: string[] = [];
  for (const format of ['png', 'mvt'] as const) {
    const pick = (server: Contender['server']) => contenders.find((c) => c.server === server && c.format === format && c.file === 'big' && c.list === 'all')!;
    const [ours, theirs] = [pick('ours'), pick('MapServer')];
    const compared: string[] = [];
    for (const tile of sampleTiles(ours.tiles)) {
      const [a, b] = [await fetchAnswer(ours, tile), await fetchAnswer(theirs, tile)];
      if (problemOf(a, format) || problemOf(b, format)) continue;
      if (format === 'png') {
        const [ourPng, theirPng] = [decodePng(a.bytes), decodePng(b.bytes)];
        const painted = maskIoU(paintedMask(ourPng), paintedMask(theirPng)).iou;
        compared.push(`${painted.toFixed(3)}/${maskIoUWithin(outlineMask(ourPng), outlineMask(theirPng), ourPng.width).toFixed(3)}`);
      }
      else compared.push(`${contentOf(a, format)}/${contentOf(b, format)}`);
    }
    lines.push(
      format === 'png'
        ? `ours vs MapServer, png: IoU of painted pixels / of the red outline (1 px slack) per sample tile ${compared.join(', ')}`
        : `ours vs MapServer, mvt: features per sample tile (ours/MapServer) ${compared.join(', ')}`,
    );
  }
  return lines;
}

/** 1 where a tile shows the outline: mostly opaque, red well above green and blue (the fill is grey #D3D3D3). */
function outlineMask({ data, width, height }: DecodedPng): Uint8Array {
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) mask[i] = data[4 * i + 3] >= 128 && data[4 * i] >= 2 * Math.max(data[4 * i + 1], data[4 * i + 2]) ? 1 : 0;
  return mask;
}

/** A few seconds of the row's load by fetch (8 at a time), counted by status, with the first answer of each status that is not 200. */
async function statusCensus(contender: Contender): Promise<string> {
  const counts = new Map<number, number>();
  const firsts = new Map<number, string>();
  const until = performance.now() + CENSUS_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const answer = await fetchAnswer(contender, contender.tiles[Math.floor(Math.random() * contender.tiles.length)]);
        counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
        if (answer.status !== 200 && !firsts.has(answer.status)) firsts.set(answer.status, problemOf(answer, contender.format) ?? '');
      }
    }),
  );
  const tally = [...counts].map(([status, count]) => `${status}: ${count}`).join(', ');
  return [tally, ...[...firsts.values()].map((first) => `    first: ${first}`)].join('\n');
}

function ratio(name: string, a: Measured, b: Measured, target: string): string[] {
  const of = (x: number[], y: number[]) => (mean(y) > 0 ? (mean(x) / mean(y)).toFixed(2) : '-');
  return [name, of(a.okPerSecond, b.okPerSecond), of(a.p50Ms, b.p50Ms), of(a.p99Ms, b.p99Ms), target];
}

function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** The peer kit's folder: BENCH_PEERS_KIT, else ../shared/bench-peers beside the project. */
export function peerKitDir(): string {
  return resolve(process.env.BENCH_PEERS_KIT ?? '../shared/bench-peers');
}
