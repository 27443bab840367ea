/**
 * npm run bench's sources section (issue 22's performance targets): the same server reading
 * its shapefiles from nginx by range requests, through bench/delay-proxy.ts, which models a
 * network by holding each request a fixed time and counts what the source served (requests
 * and body bytes, by method and file extension). Rows: (a) one feature cold (a fresh server
 * whose catalog is loaded and whose opening bytes were fetched ahead, the first request for a
 * random fid) and warm (the same fid again,
 * then its neighbour): what the source served for each image; (b) warm throughput at c=8
 * with no delay against the same server on the local folder; (c) c=1 latency with 20 ms a
 * request against the local folder's, in round trips.
 */
import type { IncomingMessage } from 'node:http';
import { startNginx } from '../test/support/nginx.ts';
import { removeTempDirs } from '../test/support/temp-dir.ts';
import { startDelayProxy } from './delay-proxy.ts';
import { load, measureRow } from './load.ts';
import { serverCommand, startServerProcess, type RuntimeName, type ServerProcess } from './server-process.ts';

export interface SourcesBenchOptions {
  runtime: RuntimeName;
  /** The local folders to serve, each with the shapefile measured and its feature count. */
  files: { label: string; dataDir: string; file: string; features: number }[];
  key: string;
  seconds: number;
}

/** Requests and body bytes the source served, by "METHOD extension" ("GET listing" for the folder). */
type Served = Map<string, { requests: number; bytes: number }>;

const LATENCY_DELAY_MS = 20;

export async function runSourcesBench({ runtime, files, key, seconds }: SourcesBenchOptions): Promise<string[]> {
  const lines: string[] = [];
  for (const { label, dataDir, file, features } of files) {
    const imagePath = (fid: number) => `/REST/v1/shapefiles/images?file=${file}&fid=${fid}&format=png&key=${key}`;
    const randomFid = () => Math.floor(Math.random() * features);
    const randomPaths = () => Array.from({ length: 20_000 }, () => imagePath(randomFid()));
    const nginx = await startNginx(dataDir);
    const served: Served = new Map();
    const count = (request: IncomingMessage, _status: number, bytes: number) => {
      const path = new URL(request.url ?? '/', 'http://proxy').pathname;
      const kind = `${request.method} ${path.endsWith('/') ? 'listing' : path.slice(path.lastIndexOf('.') + 1)}`;
      const entry = served.get(kind) ?? { requests: 0, bytes: 0 };
      served.set(kind, { requests: entry.requests + 1, bytes: entry.bytes + bytes });
    };
    const target = `http://127.0.0.1:${nginx.port}`;
    const direct = await startDelayProxy({ target, delayMs: 0, onAnswered: count });
    const delayed = await startDelayProxy({ target, delayMs: LATENCY_DELAY_MS });
    const start = (data: string) =>
      startServerProcess(serverCommand(runtime), { SHAPESHOT_DATA: data, SHAPESHOT_KEYS: key, SHAPESHOT_PORT: '0', SHAPESHOT_LOG_LEVEL: 'warn' }, '/ready');
    const servers: ServerProcess[] = [];
    try {
      // (a) A fresh server: its catalog loaded (a name it lacks lists the source), then one feature cold and warm.
      // The listing has the shapefiles' opening bytes fetched ahead: what that cost is said, and waited out.
      const beforeOpenings = snapshot(served);
      const remote = await start(`${direct.url}/files/`);
      servers.push(remote);
      await fetch(`${remote.origin}/REST/v1/shapefiles/images?file=no-such-file&fid=0&key=${key}`).then((answer) => answer.arrayBuffer());
      await quiet(served);
      lines.push(`${label} listing and opening bytes fetched ahead: ${describeServed(difference(served, beforeOpenings))}`);
      const fid = randomFid();
      const perImage = async (what: string, path: string) => {
        const before = snapshot(served);
        const answer = await fetch(remote.origin + path);
        await answer.arrayBuffer();
        if (answer.status !== 200) throw new Error(`${path} answered ${answer.status} from the source`);
        lines.push(`${label} ${what}: ${describeServed(difference(served, before))}`);
      };
      await perImage(`fid ${fid} cold`, imagePath(fid));
      await perImage(`fid ${fid} warm (again)`, imagePath(fid));
      await perImage(`fid ${Math.min(fid + 1, features - 1)} warm (its neighbour)`, imagePath(Math.min(fid + 1, features - 1)));

      // (b) Warm throughput at c=8, no delay, against the local folder.
      const local = await start(dataDir);
      servers.push(local);
      const rows: string[][] = [];
      await load({ origin: local.origin, paths: randomPaths(), connections: 8, seconds: 2 }); // warm-up
      rows.push(await measureRow(local, `${label} local`, randomPaths(), 8, seconds));
      const warmUp = await warmUntilSettled(remote.origin, randomPaths, served);
      lines.push(`${label} http 0 ms warm-up: ${warmUp}`);
      rows.push(await measureRow(remote, `${label} http 0 ms`, randomPaths(), 8, seconds));
      // (c) c=1 with 20 ms a request, against the local folder at c=1.
      const slow = await start(`${delayed.url}/files/`);
      servers.push(slow);
      await load({ origin: slow.origin, paths: randomPaths(), connections: 1, seconds: 2 }); // warm-up
      for (const [name, server] of [['local', local], [`http ${LATENCY_DELAY_MS} ms`, slow]] as const) {
        rows.push(await measureRow(server, `${label} ${name}`, randomPaths(), 1, seconds));
      }
      lines.push('', table(['source', 'conc', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/img', 'failed'], rows), '');
      const [localC8, remoteC8, localC1, slowC1] = rows;
      lines.push(`${label}: c=8 warm throughput, http 0 ms / local: ${((100 * Number(remoteC8[2])) / Number(localC8[2])).toFixed(0)} %`);
      const roundTrips = (Number(slowC1[3]) - Number(localC1[3])) / LATENCY_DELAY_MS;
      lines.push(`${label}: c=1 p50 with ${LATENCY_DELAY_MS} ms a request, beyond local: ${roundTrips.toFixed(2)} round trips`, '');
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      await Promise.all([direct.stop(), delayed.stop()]);
      await nginx.stop();
      removeTempDirs();
    }
  }
  return lines;
}

/**
 * Random features at c=8 in rounds of WARM_ROUND_SECONDS until the source serves at most
 * WARM_READS reads an image (each worker's blocks of the .shx and .dbf cached: warm, as
 * issue 22's throughput target says), or WARM_MAX_ROUNDS have gone by; says how it went.
 */
async function warmUntilSettled(origin: string, randomPaths: () => string[], served: Served): Promise<string> {
  const reads = () => [...served].reduce((sum, [kind, entry]) => sum + (kind.startsWith('GET') ? entry.requests : 0), 0);
  let perImage = Infinity;
  let rounds = 0;
  while (perImage > WARM_READS && rounds < WARM_MAX_ROUNDS) {
    const before = reads();
    const { requests } = await load({ origin, paths: randomPaths(), connections: 8, seconds: WARM_ROUND_SECONDS });
    perImage = (reads() - before) / Math.max(1, requests);
    rounds++;
  }
  return `${rounds * WARM_ROUND_SECONDS} s, then ${perImage.toFixed(2)} range reads an image`;
}

const WARM_READS = 1.1;
const WARM_ROUND_SECONDS = 3;
const WARM_MAX_ROUNDS = 20;

/** Resolves once the source has served nothing new for QUIET_MS. */
async function quiet(served: Served): Promise<void> {
  const total = () => [...served.values()].reduce((sum, entry) => sum + entry.requests, 0);
  for (let seen = -1; seen !== total(); ) {
    seen = total();
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  }
}

const QUIET_MS = 300;

function snapshot(served: Served): Served {
  return new Map([...served].map(([kind, entry]) => [kind, { ...entry }]));
}

function difference(now: Served, before: Served): Served {
  const changed: Served = new Map();
  for (const [kind, { requests, bytes }] of now) {
    const then = before.get(kind) ?? { requests: 0, bytes: 0 };
    if (requests > then.requests) changed.set(kind, { requests: requests - then.requests, bytes: bytes - then.bytes });
  }
  return changed;
}

/** "8 requests, 14.2 KB (GET dbf: 2, 8.1 KB, …)": GETs are the range reads, HEADs the catalog's stats. */
function describeServed(served: Served): string {
  const entries = [...served].sort(([a], [b]) => a.localeCompare(b));
  const requests = entries.reduce((sum, [, entry]) => sum + entry.requests, 0);
  const bytes = entries.reduce((sum, [, entry]) => sum + entry.bytes, 0);
  const parts = entries.map(([kind, entry]) => `${kind}: ${entry.requests}, ${(entry.bytes / 1024).toFixed(1)} KB`);
  return `${requests} requests, ${(bytes / 1024).toFixed(1)} KB${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

function table(header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padStart(widths[i])).join('  ');
  return [line(header), ...body.map(line)].join('\n');
}
