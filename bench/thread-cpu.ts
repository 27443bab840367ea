/**
 * Where a request's CPU goes, thread by thread: the server is loaded with random png images
 * of the bench's parcels at c=8, and each of its threads' CPU time (from /proc) is divided by
 * the requests answered. Steadier than requests/s for telling two versions apart (run it in
 * each checkout, alternately): `tsx bench/thread-cpu.ts [seconds]`. Linux only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { load } from './load.ts';
import { ensureParcels } from './parcels.ts';
import { serverCommand, startServerProcess } from './server-process.ts';

const seconds = Number(process.argv[2] ?? 8);
const key = 'bench-key-0123456789';
const features = 1_000_000;
const dataDir = ensureParcels(resolve(process.env.BENCH_DIR ?? '.bench-cache'), features, console.log);
const path = () => `/REST/v1/shapefiles/images?file=parcels&fid=${Math.floor(Math.random() * features)}&format=png&key=${key}`;
const paths = Array.from({ length: 20_000 }, path);
const CLOCK_TICKS_PER_MS = 0.1;

const server = await startServerProcess(
  serverCommand('node'),
  { SHAPESHOT_DATA: dataDir, SHAPESHOT_KEYS: key, SHAPESHOT_PORT: '0', SHAPESHOT_LOG_LEVEL: 'warn' },
  path(),
);
const [pid] = server.processes();
/** CPU milliseconds of each thread of the server's process, by thread id. */
const threadCpu = () =>
  new Map(
    readdirSync(`/proc/${pid}/task`).map((tid) => {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      return [tid, (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_MS];
    }),
  );
try {
  await load({ origin: server.origin, paths, connections: 8, seconds: 2 });
  const before = threadCpu();
  const { requests } = await load({ origin: server.origin, paths, connections: 8, seconds });
  const after = threadCpu();
  console.log(`${requests} requests in ${seconds} s; CPU ms a request by thread (the first is the main thread):`);
  let total = 0;
  for (const [tid, ms] of after) total += ms - (before.get(tid) ?? 0);
  console.log(`  ${'all threads'.padEnd(16)} ${(total / requests).toFixed(3)}`);
  for (const [tid, ms] of after) {
    const used = (ms - (before.get(tid) ?? 0)) / requests;
    const name = tid === String(pid) ? 'main' : readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    if (used >= 0.005) console.log(`  ${name.padEnd(16)} ${used.toFixed(3)}`);
  }
} finally {
  await server.stop();
}
