import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BIG_LAYERS_HEADER, runBigLayersBench } from './big-layers.ts';
import { runClassifyBench } from './classify.ts';
import { runIndexBench } from './index.ts';
import { runLimitsBench } from './limits.ts';
import { COLD_START_HEADER, runColdStartBench } from './cold-start.ts';
import { runThematicBench } from './thematic.ts';
import { peerKitDir, runTilesBench, TILES_HEADER, TILES_RATIO_HEADER } from './tiles.ts';
import { load, loadGenerator, measureRow } from './load.ts';
import { runMapBench } from './map.ts';
import { ensureHeavyFile, runOverloadBench } from './overload.ts';
import { ensureParcels, readThrough } from './parcels.ts';
import { runSelectBench } from './select.ts';
import { runSourcesBench } from './sources.ts';
import { runSourceBulkBench, SOURCE_BULK_HEADER } from './source-bulk.ts';
import { runStageBench } from './stages.ts';
import { RUNTIMES, serverCommand, startServerProcess, type RuntimeName } from './server-process.ts';

/**
 * npm run bench: the images operation over HTTP on random features of a large RD New
 * parcel file, per format and concurrency; overload (c=600) and abandoned heavy work
 * (bench/overload.ts); selecting by attributes, where= and /ogc pages (bench/select.ts); then
 * the map operation (bench/map.ts); classifying a field, cold (bench/classify.ts); a choropleth
 * with labels and legend against the same image plain (bench/thematic.ts); the same
 * images read from nginx by range requests through a delaying proxy, cold, warm and against
 * the local folder (bench/sources.ts); whole-file maps of 100,000 polygons and of 1,000,000
 * points at 1000×1000, with peak memory and the event loop's longest stall (bench/big-layers.ts,
 * issue 28); a page of 1,000 /ogc items and a whole-file map of 100,000 polygons, cold, from
 * the folder and from nginx (bench/source-bulk.ts, issue 29); what a key's limits cost, in
 * memory and in Redis (bench/limits.ts, issue 30); the spatial index of the parcels, built on a
 * worker and searched (bench/index.ts, issue 32); random tiles, PNG and MVT, beside MapServer 8's
 * tile mode, on the peer kit's 200,000 polygons and on 2,000 (bench/tiles.ts, issue 32). Environment: BENCH_FEATURES
 * (default 1,000,000), BENCH_SECONDS per run (default 10), BENCH_DIR (default
 * .bench-cache), BENCH_RUNTIME: the server's runtime, node (default), deno or bun;
 * BENCH_ONLY: some of images, overload, select, maps, stages, classify, thematic, sources, big, bulk, cold, limits, index, tiles (comma-separated; default all);
 * BENCH_BULK_RUNS: fresh servers per bulk request and source (default 3);
 * BENCH_BIG_RUNS: warm runs of each big-layers request after its cold one (default 2); BENCH_BIG_MATCH: only
 * the big-layers requests whose label matches this regular expression (e.g. 'where');
 * BENCH_PEERS_DATA: the peer kit's data folder (../shared/bench-peers), whose big.shp the
 * stage breakdown and the sources section measure too; BENCH_PEERS_KIT: the peer kit itself (default
 * ../shared/bench-peers), whose tools the tiles section runs; BENCH_TILES_SECONDS (default 15),
 * BENCH_TILES_WARM (default 3) and BENCH_TILES_ROUNDS (default 2): the tiles section's timed run,
 * warm-up before each and rounds; BENCH_PROFILE=1: CPU profiles behind the stage breakdown and the big layers.
 */
const features = Number(process.env.BENCH_FEATURES ?? 1_000_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const runtime = (process.env.BENCH_RUNTIME ?? 'node') as RuntimeName;
const only = new Set((process.env.BENCH_ONLY ?? 'images,overload,select,maps,stages,classify,thematic,sources,big,bulk,cold,limits,index,tiles').split(','));
if (!RUNTIMES.includes(runtime)) throw new Error(`BENCH_RUNTIME must be one of ${RUNTIMES.join(', ')}; got '${runtime}'`);
const cacheDir = resolve(process.env.BENCH_DIR ?? '.bench-cache');
// Every section but big, bulk, cold and tiles reads the parcels: BENCH_ONLY=big,bulk neither writes nor reads them.
const needsParcels = [...only].some((section) => !['big', 'bulk', 'cold', 'tiles'].includes(section));
const dataDir = needsParcels ? ensureParcels(cacheDir, features, console.log) : '';
if (needsParcels) readThrough(dataDir);
const heavyFile = needsParcels ? ensureHeavyFile(dataDir) : '';
const key = 'bench-key-0123456789';

const imagePath = (fid: number, format: string) =>
  `/REST/v1/shapefiles/images?file=parcels&fid=${fid}&format=${format}&key=${key}`;
const randomFid = () => Math.floor(Math.random() * features);
const randomPaths = (format: string) => Array.from({ length: 20_000 }, () => imagePath(randomFid(), format));

if (only.has('images') || only.has('overload')) {
  const server = await startServerProcess(
    serverCommand(runtime),
    { SHAPESHOT_DATA: dataDir, SHAPESHOT_KEYS: key, SHAPESHOT_PORT: '0', SHAPESHOT_LOG_LEVEL: 'warn' },
    imagePath(randomFid(), 'png'),
  );
  console.log(`first answer after a cold start: ${server.coldStartMs.toFixed(0)} ms`);
  const rows: string[][] = [];
  const peakAfter: string[] = [];
  let overload: string[] = [];
  try {
    await load({ origin: server.origin, paths: randomPaths('png'), connections: 8, seconds: 2 }); // warm-up
    if (only.has('images')) {
      for (const format of ['png', 'xml', 'json']) {
        for (const connections of [1, 8]) rows.push(await measureRow(server, format, randomPaths(format), connections, seconds));
        peakAfter.push(`${format} ${server.peakRssMb().toFixed(0)} MB`);
      }
      const conditional = await notModifiedRequest(server.origin, imagePath(randomFid(), 'png'));
      for (const connections of [1, 8]) rows.push(await measureRow(server, 'png 304', [conditional.path], connections, seconds, conditional.headers));
    }
    if (only.has('overload')) {
      const heavyPath = `/REST/v1/shapefiles/images?file=${heavyFile}&fid=0&reduceTol=1e-9&format=png&key=${key}`;
      overload = await runOverloadBench(server, randomPaths('png'), heavyPath, seconds);
      peakAfter.push(`overload ${server.peakRssMb().toFixed(0)} MB`);
    }
  } finally {
    await server.stop();
  }
  if (rows.length > 0) {
    console.log(`\n${runtime}: ${features} features, 640x480, ${seconds} s per run, random feature ids, load by ${loadGenerator}\n`);
    printTable(['format', 'conc', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/img', 'failed'], rows);
  }
  if (overload.length > 0) console.log(`\n${runtime}: overload (small png requests) and abandoned work\n\n${overload.join('\n')}`);
  console.log(`\npeak RSS of the server after each part: ${peakAfter.join(', ')}`);
}

const peers = process.env.BENCH_PEERS_DATA;
const benchFiles = [
  { label: 'parcels', dataDir, file: 'parcels', features },
  ...(peers && existsSync(join(peers, 'big.shp')) ? [{ label: 'big', dataDir: resolve(peers), file: 'big', features: 200_000 }] : []),
];

if (only.has('stages')) {
  const profileDir = process.env.BENCH_PROFILE === '1' ? resolve(process.env.BENCH_DIR ?? '.bench-cache', 'profiles', String(Date.now())) : undefined;
  const lines = await runStageBench({ runtime, files: benchFiles, key, requests: 2000, profileDir });
  console.log(`\n${runtime}: where the time of one 640x480 image goes (Server-Timing, mean per request)\n\n${lines.join('\n')}`);
}

if (only.has('select')) {
  const selectRows = await runSelectBench({ runtime, dataDir, features, key, repeats: 10 });
  console.log(`\n${runtime}: selecting by attributes in ${features} records (one request at a time, 10 each)\n`);
  printTable(['request', 'status', 'min ms', 'p50 ms', 'max ms'], selectRows);
}

if (only.has('maps')) {
  const mapRows = await runMapBench({ runtime, dataDir, features, seconds, key });
  console.log(`\n${runtime}: maps of one parcel at 640x480, tiles from a server on loopback\n`);
  printTable(['basemap', 'conc', 'maps/s', 'p50 ms', 'p99 ms', 'CPU ms/map', 'failed'], mapRows);
}

if (only.has('thematic')) {
  const thematicRows = await runThematicBench({ runtime, seconds, key, parcelsDir: dataDir });
  console.log(
    `\n${runtime}: every sample country in one 640x480 PNG, plain and styled (by REGION or AREA_KM2, with labelField=NAME and legend=1);` +
      ` the legend of the ${features} parcels' ID, first (classified: p50 is its time) and kept\n`,
  );
  printTable(['image', 'conc', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/img', 'failed'], thematicRows);
}

if (only.has('classify')) {
  const classifyRows = await runClassifyBench(dataDir);
  console.log(`\nclassifying a field of ${features} records, cold (a fresh worker opens the file; one job each)\n`);
  printTable(['classification', 'ms', 'classes', 'features'], classifyRows);
}

if (only.has('sources')) {
  const lines = await runSourcesBench({ runtime, files: benchFiles, key, seconds });
  console.log(`\n${runtime}: 640x480 PNGs of random features read from nginx by range requests through bench/delay-proxy.ts\n\n${lines.join('\n')}`);
}

if (only.has('big')) {
  const warmRuns = Number(process.env.BENCH_BIG_RUNS ?? 2);
  const profileDir = process.env.BENCH_PROFILE === '1' ? resolve(cacheDir, 'profiles', `big-${Date.now()}`) : undefined;
  const match = process.env.BENCH_BIG_MATCH ? new RegExp(process.env.BENCH_BIG_MATCH, 'i') : undefined;
  const big = await runBigLayersBench({ runtime, cacheDir, key, warmRuns, log: console.log, match, profileDir });
  console.log(`\n${runtime}: big layers at 1000x1000 (issue 28), one request at a time\n\n${big.setup.join('\n')}\n`);
  printTable(BIG_LAYERS_HEADER, big.rows);
  console.log(`\nServer-Timing (ms) and errors:\n${big.details.map((line) => `  ${line}`).join('\n')}`);
}

if (only.has('bulk')) {
  const runs = Number(process.env.BENCH_BULK_RUNS ?? 3);
  const rows = await runSourceBulkBench({ runtime, cacheDir, key, runs, log: console.log });
  console.log(`\n${runtime}: requests of many features, cold (a fresh server each, warmed on another file), from the folder and from nginx on loopback (issue 29)\n`);
  printTable(SOURCE_BULK_HEADER, rows);
}

if (only.has('cold')) {
  const rows = await runColdStartBench(console.log);
  console.log('\nnode: cold start, `npm start` on the sample data to its first answer, five fresh processes each (issue 31: image ≤ 1000 ms, map ≤ 1500 ms)\n');
  printTable(COLD_START_HEADER, rows);
}

if (only.has('limits')) {
  const { cpu, images } = await runLimitsBench({ runtime, dataDir, features, seconds, requests: 20_000 });
  console.log(`\nwhat a key's limits cost: this process's CPU per request through the app (8 in flight; a 404 after the key, its limits, admission and validation)\n`);
  printTable(['key rules', 'CPU µs/req', 'vs none'], cpu);
  console.log(`\n${runtime}: images at concurrency 8 with the same key rules, in memory and in Redis (limits.store)\n`);
  printTable(['format', 'conc', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/img', 'failed'], images);
}

if (only.has('index')) {
  const rows = await runIndexBench(dataDir);
  console.log(`\nthe spatial index of ${features} parcels on a worker (the map-in-view job on a pool of one; issue 32: built in < 2 s)\n`);
  printTable(['job', 'ms'], rows);
}

if (only.has('tiles')) {
  const tiles = await runTilesBench({
    runtime,
    cacheDir,
    kitDir: peerKitDir(),
    key,
    seconds: Number(process.env.BENCH_TILES_SECONDS ?? 15),
    warmSeconds: Number(process.env.BENCH_TILES_WARM ?? 3),
    rounds: Number(process.env.BENCH_TILES_ROUNDS ?? 2),
    log: console.log,
  });
  console.log(`\n${runtime}: random 256-px tiles at z 12–16 beside MapServer's tile mode, c=8, load by ${loadGenerator} (issue 32)\n\n${tiles.setup.join('\n')}\n`);
  console.log(`answers checked before the load:\n${tiles.checks.join('\n')}\n`);
  printTable(TILES_HEADER, tiles.rows);
  console.log('');
  printTable(TILES_RATIO_HEADER, tiles.ratios);
}

/**
 * A request that a client holding the image already makes: its If-None-Match is the ETag
 * of the image, so it is answered 304 from the catalog and a stat, with nothing drawn.
 */
async function notModifiedRequest(origin: string, path: string) {
  const drawn = await fetch(origin + path);
  await drawn.arrayBuffer();
  const headers = { 'If-None-Match': drawn.headers.get('etag') ?? '' };
  const check = await fetch(origin + path, { headers });
  if (check.status !== 304) throw new Error(`${path} with If-None-Match answered ${check.status}, not 304`);
  return { path, headers };
}

function printTable(header: string[], body: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padStart(widths[i])).join('  ');
  console.log([line(header), ...body.map(line)].join('\n'));
}
