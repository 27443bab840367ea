import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LoadOptions {
  origin: string;
  /** Each request takes one of these paths at random. */
  paths: readonly string[];
  connections: number;
  seconds: number;
  /** wrk threads (default 1); many connections need a second one. */
  threads?: number;
  /** Sent with every request. */
  headers?: Record<string, string>;
}

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  failed: number;
}

/**
 * HTTP load on the server. wrk when it is installed (apt-get install wrk): written in C, it
 * leaves the two cores to the server; otherwise autocannon, which itself takes a good part
 * of a core at a few hundred requests per second.
 */
export const loadGenerator = hasWrk() ? 'wrk' : 'autocannon';

export function load(options: LoadOptions): Promise<LoadResult> {
  return loadGenerator === 'wrk' ? loadWithWrk(options) : loadWithAutocannon(options);
}

/**
 * A load run as a table row: label, connections, requests/s, p50 ms, p99 ms, the server's
 * CPU ms per request (all its threads, from /proc), failed requests.
 */
export async function measureRow(
  server: { origin: string; cpuMs(): number },
  label: string,
  paths: readonly string[],
  connections: number,
  seconds: number,
  headers?: Record<string, string>,
): Promise<string[]> {
  const cpuBefore = server.cpuMs();
  const result = await load({ origin: server.origin, paths, connections, seconds, headers });
  return [
    label,
    String(connections),
    result.perSecond.toFixed(0),
    result.p50Ms.toFixed(1),
    result.p99Ms.toFixed(1),
    ((server.cpuMs() - cpuBefore) / result.requests).toFixed(2),
    String(result.failed),
  ];
}

function hasWrk(): boolean {
  if (process.env.BENCH_LOADGEN === 'autocannon') return false;
  return spawnSync('wrk', ['--version']).error === undefined;
}

async function loadWithAutocannon({ origin, paths, connections, seconds, headers }: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: origin,
    connections,
    duration: seconds,
    headers,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: pick(paths) }) }],
  });
  return {
    requests: result.requests.total,
    perSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    // As wrk counts them: a 304 answers a conditional request as it should.
    failed: result['4xx'] + result['5xx'] + result.errors,
  };
}

const WRK_SCRIPT = `
local paths = dofile(os.getenv("WRK_PATHS"))
math.randomseed(os.time())
request = function()
  return wrk.format("GET", paths[math.random(1, #paths)])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.stderr:write(string.format('{"requests":%d,"micros":%d,"p50":%f,"p99":%f,"failed":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout + e.status))
end
`;

/** wrk in a child process, waited for without blocking this one (a probe may run beside it). */
async function loadWithWrk({ origin, paths, connections, seconds, threads = 1, headers = {} }: LoadOptions): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'shapeshot-wrk-'));
  writeFileSync(join(dir, 'script.lua'), WRK_SCRIPT);
  writeFileSync(join(dir, 'paths.lua'), `return {${paths.map((path) => JSON.stringify(path)).join(',')}}`);
  const headerArgs = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const child = spawn(
    'wrk',
    ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--timeout', '10s', '-s', join(dir, 'script.lua'), ...headerArgs, origin],
    { env: { ...process.env, WRK_PATHS: join(dir, 'paths.lua') } },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  await new Promise((resolve) => child.once('close', resolve));
  const summary = stderr.split('\n').find((line) => line.startsWith('{'));
  if (!summary) throw new Error(`wrk failed: ${stderr || stdout}`);
  const { requests, micros, p50, p99, failed } = JSON.parse(summary);
  return { requests, perSecond: requests / (micros / 1e6), p50Ms: p50 / 1000, p99Ms: p99 / 1000, failed };
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}

/** The middle of a few timings (the upper middle of an even count). */
export function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}
