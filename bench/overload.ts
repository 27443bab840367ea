/**
 * Overload and abandoned work, measured from outside:
 * - c=600: wrk keeps 600 connections busy with small image requests, while a light probe
 *   (4 connections of its own) times each of its requests, apart by answer (admitted 200,
 *   shed 503); then the load stops and the probe tells when full service is back.
 * - a storm of disconnected heavy requests: clients send requests that cost about a second
 *   of work each and hang up after 100 ms, for 3 s; then the server's CPU is sampled until
 *   it is back to idle.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ShapeType } from '../src/shapefile/types.ts';
import { ringXY, writeRawShapefile } from '../test/support/raw-shapefile.ts';
import { load } from './load.ts';
import type { ServerProcess } from './server-process.ts';

interface Probe {
  at: number;
  status: number;
  ms: number;
}

/** A request of about a second of work (Douglas–Peucker over a 1.9-million-vertex zigzag). */
export function ensureHeavyFile(dataDir: string): string {
  const base = join(dataDir, 'heavy');
  if (!existsSync(`${base}.shp`)) {
    mkdirSync(dataDir, { recursive: true });
    writeRawShapefile(base, ShapeType.Polygon, [{ shapeType: ShapeType.Polygon, xy: ringXY(0, 0, 1000, 1_900_000, 0.05) }]);
  }
  return 'heavy';
}

export async function runOverloadBench(
  server: ServerProcess,
  smallPaths: readonly string[],
  heavyPath: string,
  seconds: number,
): Promise<string[]> {
  const lines: string[] = [];
  const origin = new URL(server.origin);

  // c=600, with the probe alongside.
  const probes: Probe[] = [];
  const started = performance.now();
  let probing = true;
  const probeLoops = runProbe(origin, smallPaths, probes, () => probing, started);
  const cpuBefore = server.cpuMs();
  const loadStart = performance.now() - started;
  const result = await load({ origin: server.origin, paths: smallPaths, connections: 600, seconds, threads: 2 });
  const loadEnd = performance.now() - started;
  const cores = (server.cpuMs() - cpuBefore) / (loadEnd - loadStart);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  probing = false;
  await probeLoops;

  const during = probes.filter((probe) => probe.at >= loadStart + 1000 && probe.at <= loadEnd);
  const admitted = during.filter((probe) => probe.status === 200).map((probe) => probe.ms);
  const shed = during.filter((probe) => probe.status === 503).map((probe) => probe.ms);
  lines.push(
    `c=600 for ${seconds} s: ${result.perSecond.toFixed(0)} answers/s, ${result.failed} of ${result.requests} not 200 (shed), ` +
      `server CPU ${cores.toFixed(2)} cores`,
    `  probe during the load: admitted ${admitted.length}, p50 ${percentile(admitted, 50)} ms, p99 ${percentile(admitted, 99)} ms; ` +
      `shed ${shed.length}, p50 ${percentile(shed, 50)} ms, p99 ${percentile(shed, 99)} ms`,
    `  full service again (every probe 200 within 100 ms) ${recoveryMs(probes, loadEnd)} ms after the load ended`,
  );

  // The storm of disconnected heavy requests.
  const stormSeconds = 3;
  const stormEnd = performance.now() + stormSeconds * 1000;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (performance.now() < stormEnd) await abandon(origin, heavyPath, 100);
    }),
  );
  const idleAfter = await msUntilIdle(server);
  lines.push(
    `storm of disconnected heavy requests (32 clients, ${stormSeconds} s, each hanging up after 100 ms): ` +
      `server CPU back to idle ${idleAfter} ms after the storm`,
  );
  return lines;
}

/** Four connections sending one small request after another, each timed. */
async function runProbe(origin: URL, paths: readonly string[], probes: Probe[], going: () => boolean, started: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (going()) {
        const path = paths[Math.floor(Math.random() * paths.length)];
        const sent = performance.now();
        const status = await get(origin, path, agent);
        probes.push({ at: sent - started, status, ms: performance.now() - sent });
      }
    }),
  );
  agent.destroy();
}

function get(origin: URL, path: string, agent: Agent): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: origin.hostname, port: origin.port, path, agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

/** Sends a request on a connection of its own and hangs up after `ms`. */
function abandon(origin: URL, path: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(Number(origin.port), origin.hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${origin.host}\r\n\r\n`);
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, ms);
    });
    socket.on('error', () => resolve());
  });
}

/** Milliseconds until the server spends under 5 % of a core over 100 ms (at most 10 s). */
async function msUntilIdle(server: ServerProcess): Promise<number | string> {
  const started = performance.now();
  let before = server.cpuMs();
  while (performance.now() - started < 10_000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = server.cpuMs();
    if (now - before < 5) return Math.round(performance.now() - started);
    before = now;
  }
  return 'more than 10000';
}

/** From the end of the load, until every later probe was a 200 answered within 100 ms. */
function recoveryMs(probes: Probe[], loadEnd: number): number | string {
  const after = probes.filter((probe) => probe.at + probe.ms >= loadEnd);
  const lastBad = after.filter((probe) => probe.status !== 200 || probe.ms > 100).at(-1);
  if (!lastBad) return 0;
  if (lastBad === after.at(-1)) return 'not within 3 s';
  return Math.max(0, Math.round(lastBad.at + lastBad.ms - loadEnd));
}

function percentile(values: number[], p: number): string {
  if (values.length === 0) return '-';
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1);
}
