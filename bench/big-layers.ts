/**
 * npm run bench's big-layers section (issue 28): whole-file maps of 100,000 small polygons (in
 * lon/lat, and in RD New, which adds reprojection) and of 1,000,000 points at 1000×1000, a
 * where= selection of all 100,000 polygons as a map and as one image
 * (images?…&singleImage=1), one request at a time. Per request: wall time, status, the
 * server's CPU time (all its threads) and the rest of the machine's during it (other work on
 * a shared machine lengthens wall times: compare CPU ms then), the server's peak RSS during
 * it, and the event loop's longest stall, seen two ways: prom-client's
 * nodejs_eventloop_lag_max_seconds (scraped from /metrics right before the request and a
 * second after its answer: each scrape resets its histogram) and the slowest /health answer
 * of a poller this process runs beside the request, apart for polls sent before the answer
 * and in the second after it (a collection of the request's garbage can stall the loop once
 * it has answered). Each request runs in a server of its own, so
 * that its first run is cold (file opened the first time, code not yet optimized, tile cache
 * empty) and the rest warm. The server answers with Server-Timing, whose stages are reported
 * too. A 4xx or 5xx answer, or a server that dies, is a row like the others.
 */
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Position } from 'geojson';
import { ShapeType } from '../src/shapefile/types.ts';
import { createShapefileWriter } from '../scripts/lib/shapefile-writer.ts';
import { summarizeProfiles } from './profile.ts';
import { serverCommand, startServerProcess, type RuntimeName, type ServerProcess } from './server-process.ts';
import { startTileServer } from './tile-server-process.ts';

export interface BigLayersBenchOptions {
  runtime: RuntimeName;
  /** BENCH_DIR: the layers are written once under it, in big-layers-v2/. */
  cacheDir: string;
  key: string;
  /** Runs after the first (cold) one, per request. */
  warmRuns: number;
  log: (line: string) => void;
  /** BENCH_BIG_MATCH: only the requests whose label this matches (a regular expression, case ignored). */
  match?: RegExp;
  /** BENCH_PROFILE=1: the server (Node) writes V8 CPU profiles here, a folder per request, summarized per thread in the details. */
  profileDir?: string;
}

export interface BigLayersResult {
  /** What the server was configured with, in words. */
  setup: string[];
  /** As BIG_LAYERS_HEADER names them. */
  rows: string[][];
  /** Server-Timing stages of each request's cold and last run, and the error text of failed answers. */
  details: string[];
}

export const BIG_LAYERS_HEADER = [
  'request',
  'run',
  'status',
  'ms',
  'CPU ms',
  'other CPU ms',
  'bytes',
  'RSS before MB',
  'peak RSS MB',
  'stall /metrics ms',
  'slowest /health ms',
  'after answer',
];

/** 0.008° squares 0.01° apart, 317 to a row from 3° E, 50° N (WGS 84). */
export const SQUARES = { file: 'squares', features: 100_000 };
/** The same count in RD New over the Netherlands: 502 m squares in cells of 836 × 987 m. */
export const SQUARES_RD = { file: 'squares_rd', features: 100_000 };
/** A jittered 1000 × 1000 grid over the Netherlands (WGS 84). */
export const POINTS = { file: 'points', features: 1_000_000 };

/** The limits raised above their defaults, and why. */
export const RAISED_LIMITS = {
  /** 1,000,000 points in one map (default 100,000). */
  maxMapFeatures: 1_000_000,
  /** A where= of images may select all 100,000 squares (default 1,000). */
  maxIds: 100_000,
  /** The slowest requests take longer than the default 15 s today: measured, not cut at 503. */
  requestTimeoutMs: 300_000,
};

const SIZE = '1000,1000';
/** Between the end of one /health answer and the next request: the poller's own pause. */
const POLL_GAP_MS = 5;
/** How long after a request's answer /health is still polled, and its CPU still counted. */
const SETTLE_MS = 1000;

/**
 * The requests measured, each in a fresh server. The first is the floor: one square on the
 * same basemap at the same size, so what the layers add shows against it.
 */
function requests(key: string): [string, string][] {
  const all = encodeURIComponent('VAL >= 0');
  const map = (query: string) => `/REST/v1/shapefiles/map?${query}&size=${SIZE}&format=png&key=${key}`;
  return [
    ['map, one square (fid=0)', map(`file=${SQUARES.file}&fid=0`)],
    ['map, 100k squares', map(`file=${SQUARES.file}`)],
    ['map, 100k squares, where= all', map(`file=${SQUARES.file}&where=${all}`)],
    ['map, 100k squares in RD New', map(`file=${SQUARES_RD.file}`)],
    ['map, 1M points', map(`file=${POINTS.file}`)],
    [
      'images, 100k squares, where= all, singleImage',
      `/REST/v1/shapefiles/images?file=${SQUARES.file}&where=${all}&singleImage=1&size=${SIZE}&format=png&key=${key}`,
    ],
  ];
}

export async function runBigLayersBench({ runtime, cacheDir, key, warmRuns, log, match, profileDir }: BigLayersBenchOptions): Promise<BigLayersResult> {
  const dataDir = ensureBigLayers(cacheDir, log);
  readThrough(dataDir, [SQUARES.file, SQUARES_RD.file, POINTS.file]);
  const tiles = await startTileServer();
  const configDir = mkdtempSync(join(tmpdir(), 'shapeshot-bench-big-'));
  const config = join(configDir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      limits: RAISED_LIMITS,
      basemaps: {
        providers: { tiles: { plugin: 'xyz', options: { url: tiles.template, attribution: '© bench tiles' } } },
        types: { Road: 'tiles', Aerial: 'tiles', AerialWithLabels: 'tiles' },
      },
    }),
  );
  const setup = [
    `layers in ${dataDir}: ${SQUARES.features} squares (5 vertices each, WGS 84, 0.008° squares 0.01° apart, 317 to a row), the same count in RD New (${SQUARES_RD.file}), ` +
      `${POINTS.features} points (WGS 84, a jittered 1000×1000 grid); numeric field VAL = record number`,
    `limits raised: ${Object.entries(RAISED_LIMITS).map(([name, value]) => `${name} ${value}`).join(', ')} (the rest default: maxMapVertices 5,000,000, maxImageVertices 2,000,000, maxAnswerBytes 48 MiB)`,
    'basemap: xyz tiles from bench/tile-server.ts on loopback, kept in the provider\'s memory cache (only each server\'s first map fetches them)',
    `a fresh server per request (render.workers = cores: ${availableParallelism()}), run 1 cold, then ${warmRuns} warm; one request at a time; ` +
      `/health polled back to back (${POLL_GAP_MS} ms apart) during each and for ${SETTLE_MS} ms after its answer: its slowest answer (and how many it got) in each; ` +
      'the /metrics stall covers both',
    `CPU ms: the server's, all threads, from the request to ${SETTLE_MS} ms after its answer; other CPU ms: the rest of the machine's meanwhile, this process's excepted ` +
      `(load average at the start: ${loadavg().map((load) => load.toFixed(1)).join(', ')})`,
  ];
  const rows: string[][] = [];
  const details: string[] = [];
  try {
    for (const [index, [label, path]] of requests(key).entries()) {
      if (match && !match.test(label)) continue;
      const command = serverCommand(runtime);
      const profiles = profileDir && runtime === 'node' ? join(profileDir, `request-${index + 1}`) : undefined;
      if (profiles) command.splice(1, 0, '--cpu-prof', `--cpu-prof-dir=${profiles}`);
      const server = await startServerProcess(
        command,
        {
          SHAPESHOT_CONFIG: config,
          SHAPESHOT_DATA: dataDir,
          SHAPESHOT_KEYS: key,
          SHAPESHOT_PORT: '0',
          SHAPESHOT_LOG_LEVEL: 'warn',
          SHAPESHOT_SERVER_TIMING: '1',
        },
        '/health',
      );
      try {
        for (let run = 0; run <= warmRuns; run++) {
          const name = run === 0 ? 'cold' : `warm ${run}`;
          const measured = await measureOnce(server, path);
          rows.push([
            label,
            name,
            measured.status,
            measured.ms.toFixed(0),
            measured.cpuMs.toFixed(0),
            measured.otherCpuMs.toFixed(0),
            String(measured.bytes),
            measured.rssBeforeMb.toFixed(0),
            measured.peakRssMb.toFixed(0),
            measured.lagMaxMs === undefined ? 'n/a' : measured.lagMaxMs.toFixed(0),
            describePolls(measured.health.during),
            describePolls(measured.health.after),
          ]);
          if (measured.error) details.push(`${label}, ${name}: ${measured.error}`);
          for (const [when, tally] of Object.entries(measured.health)) {
            if (tally.firstFailure) details.push(`${label}, ${name}: ${tally.failed} /health poll(s) ${when} the request got no answer: ${tally.firstFailure}`);
          }
          if (run === 0 || run === warmRuns) details.push(`${label}, ${name}: ${describeTiming(measured.serverTiming, measured.ms)}`);
          if (measured.serverGone) break;
        }
      } finally {
        await server.stop().catch((error: Error) => details.push(`${label}: ${error.message}`));
      }
      if (profiles) details.push(`${label}: CPU profile of all its runs (self time, top functions per thread)`, ...summarizeProfiles(profiles));
    }
  } finally {
    await tiles.close();
  }
  return { setup, rows, details };
}

interface Measured {
  status: string;
  ms: number;
  cpuMs: number;
  otherCpuMs: number;
  bytes: number;
  rssBeforeMb: number;
  peakRssMb: number;
  lagMaxMs: number | undefined;
  health: HealthPolls;
  serverTiming: string;
  error?: string;
  serverGone?: boolean;
}

/** One request, with the server's peak RSS reset before it, /metrics scraped around it and /health polled during it and SETTLE_MS after. */
async function measureOnce(server: ServerProcess, path: string): Promise<Measured> {
  const pid = leaderPid(server);
  const rssBeforeMb = rssMb(pid);
  resetPeakRss(pid);
  await lagMaxMs(server.origin); // resets the histogram: what the next scrape reports is this request's
  const poller = pollHealth(server.origin);
  const cpuBefore = { server: server.cpuMs(), machine: machineBusyMs(), bench: ownCpuMs() };
  const started = performance.now();
  let status = '';
  let bytes = 0;
  let serverTiming = '';
  let error: string | undefined;
  let serverGone = false;
  try {
    const response = await fetch(server.origin + path, { signal: AbortSignal.timeout(RAISED_LIMITS.requestTimeoutMs + 60_000) });
    const body = new Uint8Array(await response.arrayBuffer());
    status = String(response.status);
    bytes = body.length;
    serverTiming = response.headers.get('server-timing') ?? '';
    if (response.status >= 400) error = `${response.status}: ${errorText(body)}`;
  } catch (caught) {
    const cause = (caught as { cause?: { code?: string } }).cause?.code;
    status = 'error';
    error = `no answer: ${(caught as Error).message}${cause ? ` (${cause})` : ''}`;
  }
  const ms = performance.now() - started;
  poller.answered();
  // Work the request leaves behind (freeing what it held: a collection of its garbage on the
  // main thread, which --single-threaded-gc does alone) stalls the loop after the answer.
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const health = await poller.stop();
  const machineMs = machineBusyMs() - cpuBefore.machine;
  const benchMs = ownCpuMs() - cpuBefore.bench;
  let cpuMs = Number.NaN;
  try {
    cpuMs = server.cpuMs() - cpuBefore.server;
  } catch {
    // the server has exited
  }
  const otherCpuMs = Math.max(0, machineMs - (Number.isNaN(cpuMs) ? 0 : cpuMs) - benchMs);
  let lag: number | undefined;
  try {
    lag = await lagMaxMs(server.origin);
  } catch {
    serverGone = true;
  }
  const peakRssMb = serverGone ? Number.NaN : server.peakRssMb();
  return { status, ms, cpuMs, otherCpuMs, bytes, rssBeforeMb, peakRssMb, lagMaxMs: lag, health, serverTiming, error, serverGone };
}

interface PollTally {
  /** The slowest poll, answered or failed (a failure comes when the loop runs again: it waited that long too). */
  slowestMs: number;
  polls: number;
  /** Polls that got no answer (a connection closed under them), and why the first did not. */
  failed: number;
  firstFailure?: string;
}

interface HealthPolls {
  /** Polls sent before the request's answer came. */
  during: PollTally;
  /** Polls sent after it (for SETTLE_MS, the last one awaited). */
  after: PollTally;
}

/**
 * /health asked again as soon as it answers (after POLL_GAP_MS), until stopped; the slowest
 * answer is the longest the event loop kept one waiting. Polls sent before answered() count
 * as during the request, those after as after it.
 */
function pollHealth(origin: string) {
  let stopped = false;
  let answered = false;
  const polls: HealthPolls = { during: { slowestMs: 0, polls: 0, failed: 0 }, after: { slowestMs: 0, polls: 0, failed: 0 } };
  const loop = (async () => {
    while (!stopped) {
      const sent = performance.now();
      const tally = answered ? polls.after : polls.during;
      let gap = POLL_GAP_MS;
      try {
        const response = await fetch(`${origin}/health`);
        await response.arrayBuffer();
      } catch (error) {
        // A keep-alive connection the server closed with this poll on it (its idle timer fires
        // first when the loop runs again after a stall), or a server that is gone (the
        // request reports that): counted, and polled again a little later.
        tally.failed++;
        tally.firstFailure ??= `${(error as Error).message}${(error as { cause?: Error }).cause ? `: ${(error as { cause: Error }).cause.message}` : ''}`;
        gap = 50;
      }
      tally.slowestMs = Math.max(tally.slowestMs, performance.now() - sent);
      tally.polls++;
      await new Promise((resolve) => setTimeout(resolve, gap));
    }
  })();
  return {
    answered() {
      answered = true;
    },
    async stop(): Promise<HealthPolls> {
      stopped = true;
      await loop;
      return polls;
    },
  };
}

/** The slowest poll, with how many were sent and how many of them failed. */
function describePolls({ slowestMs, polls, failed }: PollTally): string {
  return `${slowestMs.toFixed(0)} (${polls}${failed > 0 ? `, ${failed} failed` : ''})`;
}

/** prom-client's nodejs_eventloop_lag_max_seconds in ms; undefined where the runtime has no such measure (Bun). */
async function lagMaxMs(origin: string): Promise<number | undefined> {
  const response = await fetch(`${origin}/metrics`);
  const text = await response.text();
  const line = /^nodejs_eventloop_lag_max_seconds(?:\{[^}]*\})? (\S+)$/m.exec(text);
  return line ? Number(line[1]) * 1000 : undefined;
}

/** The process whose pid is its group's: the one startServerProcess spawned. */
function leaderPid(server: ServerProcess): number {
  for (const pid of server.processes()) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const pgrp = Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[2]);
    if (pgrp === pid) return pid;
  }
  throw new Error('the server process has exited');
}

/** CPU time every core has spent busy since boot (not idle, not waiting for I/O), in ms. */
function machineBusyMs(): number {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  return ((user + nice + system + irq + softirq + steal) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** CPU time of this process (the client and the /health poller). */
function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const CLOCK_TICKS_PER_SECOND = 100;

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) / 1024;
}

/** Linux resets a process's peak RSS (VmHWM) to its present RSS when 5 is written to its clear_refs. */
function resetPeakRss(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** An error envelope's ErrorDetails (XML or JSON), or its text, short. */
function errorText(body: Uint8Array): string {
  const text = Buffer.from(body).toString('utf8');
  const details = /<ErrorDetails>([^<]*)<\/ErrorDetails>|"ErrorDetails"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(text);
  return (details?.[1] ?? details?.[2] ?? text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ')).trim().slice(0, 300);
}

/** Server-Timing as `stage ms` pairs, largest first, and the wall time outside them. */
function describeTiming(header: string, wallMs: number): string {
  const stages: [string, number][] = [];
  for (const entry of header.split(',')) {
    const match = /^\s*([\w-]+);dur=([\d.]+)/.exec(entry);
    if (match) stages.push([match[1], Number(match[2])]);
  }
  if (stages.length === 0) return 'no Server-Timing';
  const inApp = stages.reduce((sum, [, ms]) => sum + ms, 0);
  const listed = stages.map(([stage, ms]) => `${stage} ${ms.toFixed(0)}`).join(', ');
  return `${listed} (sum ${inApp.toFixed(0)}; wall ${wallMs.toFixed(0)}, outside the app ${(wallMs - inApp).toFixed(0)}) ms`;
}

/** The ESRI `.prj` of RD New, as bench/parcels.ts writes it. */
const RD_NEW_PRJ =
  'PROJCS["RD_New",GEOGCS["GCS_Amersfoort",DATUM["D_Amersfoort",SPHEROID["Bessel_1841",6377397.155,299.1528128]],' +
  'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Double_Stereographic"],' +
  'PARAMETER["False_Easting",155000.0],PARAMETER["False_Northing",463000.0],PARAMETER["Central_Meridian",5.38763888888889],' +
  'PARAMETER["Scale_Factor",0.9999079],PARAMETER["Latitude_Of_Origin",52.15616055555555],UNIT["Meter",1.0]]';

const WGS84_PRJ =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';

/**
 * Writes the three layers to `cacheDir/big-layers-v2/` once and returns that folder (see
 * SQUARES, SQUARES_RD and POINTS). Coordinates come from the record number alone, so every
 * machine benchmarks the same files.
 */
export function ensureBigLayers(cacheDir: string, log: (line: string) => void): string {
  const dir = join(cacheDir, 'big-layers-v2');
  const done = join(dir, 'layers.done');
  if (existsSync(done)) return dir;
  mkdirSync(dir, { recursive: true });
  log(`generating ${SQUARES.features} squares twice and ${POINTS.features} points in ${dir} (once)`);
  const fields = [{ name: 'VAL', type: 'N' as const, length: 10 }];
  const square = (x: number, y: number, side: number): Position[] => [
    [x, y],
    [x, y + side],
    [x + side, y + side],
    [x + side, y],
    [x, y],
  ];
  const perRow = Math.ceil(Math.sqrt(SQUARES.features));

  const squares = createShapefileWriter(join(dir, `${SQUARES.file}-partial`), { shapeType: ShapeType.Polygon, fields, prj: WGS84_PRJ });
  for (let i = 0; i < SQUARES.features; i++) {
    const coordinates = [square(round(3 + (i % perRow) * 0.01), round(50 + Math.floor(i / perRow) * 0.01), 0.008)];
    squares.write({ type: 'Polygon', coordinates }, { VAL: i });
  }
  squares.close();

  const rd = createShapefileWriter(join(dir, `${SQUARES_RD.file}-partial`), { shapeType: ShapeType.Polygon, fields, prj: RD_NEW_PRJ });
  const cellWidth = 265_000 / perRow;
  const cellHeight = 313_000 / perRow;
  const side = 0.6 * Math.min(cellWidth, cellHeight);
  for (let i = 0; i < SQUARES_RD.features; i++) {
    const x = 13_000 + (i % perRow) * cellWidth;
    const y = 306_000 + Math.floor(i / perRow) * cellHeight;
    rd.write({ type: 'Polygon', coordinates: [square(Math.round(x), Math.round(y), Math.round(side))] }, { VAL: i });
  }
  rd.close();

  const points = createShapefileWriter(join(dir, `${POINTS.file}-partial`), { shapeType: ShapeType.Point, fields, prj: WGS84_PRJ });
  const columns = 1000;
  const [west, south, east, north] = [3.35, 50.75, 7.22, 53.55];
  const dx = (east - west) / columns;
  const dy = (north - south) / (POINTS.features / columns);
  for (let i = 0; i < POINTS.features; i++) {
    const jitterX = ((Math.imul(i, 2654435761) >>> 0) % 1000) / 1000;
    const jitterY = ((Math.imul(i ^ 0x5bd1e995, 2246822519) >>> 0) % 1000) / 1000;
    const x = west + ((i % columns) + jitterX) * dx;
    const y = south + (Math.floor(i / columns) + jitterY) * dy;
    points.write({ type: 'Point', coordinates: [x, y] }, { VAL: i });
    if (i % 250_000 === 0 && i > 0) log(`  ${i} points`);
  }
  points.close();

  for (const { file } of [SQUARES, SQUARES_RD, POINTS]) {
    for (const ext of ['shp', 'shx', 'dbf', 'prj', 'cpg']) renameSync(join(dir, `${file}-partial.${ext}`), join(dir, `${file}.${ext}`));
  }
  writeFileSync(done, new Date().toISOString());
  return dir;
}

/** Degrees to 1e-9: 3 + 0.07 written as 3.07, not 3.0700000000000003. */
const round = (degrees: number) => Math.round(degrees * 1e9) / 1e9;

/** Reads the files once, so that the runs measure the server, not the disk. */
function readThrough(dir: string, files: string[]): void {
  const buffer = Buffer.alloc(16 * 1024 * 1024);
  for (const file of files) {
    for (const ext of ['shp', 'shx', 'dbf']) {
      const fd = openSync(join(dir, `${file}.${ext}`), 'r');
      try {
        while (readSync(fd, buffer, 0, buffer.length, null) > 0);
      } finally {
        closeSync(fd);
      }
    }
  }
}

