/**
 * npx tsx bench/send-back.ts: issue 18's scenario, what one request makes the service send
 * back. 100,000 RD New address points with 20 text fields of 60 bytes (written once into
 * BENCH_DIR, default .bench-cache), served by this checkout's server on Node; for each heavy
 * request, /health is asked every 20 ms meanwhile and the server's RSS read from /proc. Then
 * 3,000 distinct 4 KB /ogc filters, and 40 clients that ask for /ogc pages and never read
 * while small images are asked for. Timers here measure; nothing asserts (tests do that).
 */
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { request, type ClientRequest } from 'node:http';
import { join, resolve } from 'node:path';
import { createShapefileWriter } from '../scripts/lib/shapefile-writer.ts';
import { ShapeType } from '../src/shapefile/types.ts';
import { serverCommand, startServerProcess } from './server-process.ts';

const POINTS = 100_000;
const FIELDS = Array.from({ length: 20 }, (_, i) => `field${i}`);
const key = 'bench-key-0123456789';
const dataDir = resolve(process.env.BENCH_DIR ?? '.bench-cache', 'send-back');

function ensureData(): void {
  if (existsSync(join(dataDir, 'points.shp'))) return;
  mkdirSync(dataDir, { recursive: true });
  for (const ext of ['shp', 'shx', 'dbf', 'prj', 'cpg']) cpSync(`data/benelux_rd.${ext}`, join(dataDir, `benelux_rd.${ext}`));
  const writer = createShapefileWriter(join(dataDir, 'points'), {
    shapeType: ShapeType.Point,
    fields: FIELDS.map((name) => ({ name, type: 'C' as const, length: 60 })),
    prj: readFileSync('data/benelux_rd.prj', 'utf8'),
  });
  for (let i = 0; i < POINTS; i++) {
    const attributes = Object.fromEntries(FIELDS.map((name, f) => [name, `Straatnaam ${i} huisnummer ${f} Utrecht ${'x'.repeat(20)}`.slice(0, 60)]));
    writer.write({ type: 'Point', coordinates: [120_000 + (i % 300) * 100 + ((i * 7919) % 97), 480_000 + Math.floor(i / 300) * 100 + ((i * 104_729) % 89)] }, attributes);
  }
  writer.close();
}

ensureData();
const server = await startServerProcess(serverCommand('node'), { SHAPESHOT_DATA: dataDir, SHAPESHOT_KEYS: key, SHAPESHOT_PORT: '0', SHAPESHOT_LOG_LEVEL: 'warn' }, '/health');
const [pid] = server.processes();
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** `path` once, with /health asked every 20 ms meanwhile. */
async function withProbes(label: string, path: string): Promise<void> {
  let worst = 0;
  let peak = 0;
  let done = false;
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      await (await fetch(`${server.origin}/health`)).arrayBuffer();
      worst = Math.max(worst, performance.now() - started);
      peak = Math.max(peak, rssMb());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const started = performance.now();
  const response = await fetch(`${server.origin}${path}&key=${key}`);
  const bytes = (await response.arrayBuffer()).byteLength;
  const ms = performance.now() - started;
  done = true;
  await probing;
  console.log(`${label}: ${response.status}, ${bytes} bytes in ${ms.toFixed(0)} ms; /health at worst ${worst.toFixed(0)} ms; peak RSS ${peak.toFixed(0)} MB`);
}

try {
  const fields = FIELDS.join(',');
  await withProbes('a small png first (a fresh process loads code on first use)', '/REST/v1/shapefiles/images?file=points&fid=1&format=png');
  for (const format of ['json', 'xml']) {
    await withProbes(`map of every point, 20 hotSpotFields, ${format}`, `/REST/v1/shapefiles/map?file=points&includeHotSpots=1&hotSpotFields=${fields}&format=${format}`);
    await withProbes(`map at zoom 14 (~2,700 points), 20 hotSpotFields, ${format}`, `/REST/v1/shapefiles/map?file=points&zoom=14&includeHotSpots=1&hotSpotFields=${fields}&format=${format}`);
  }
  await withProbes("images, where= selecting every point, png", `/REST/v1/shapefiles/images?file=points&where=${encodeURIComponent("field0 LIKE 'S%'")}&format=png`);
  await withProbes('images, 1,000 ids, png', `/REST/v1/shapefiles/images?file=points&fid=${Array.from({ length: 1000 }, (_, i) => i).join(',')}&format=png`);

  const before = rssMb();
  for (let i = 0; i < 3000; i++) {
    const filter = `NAME = '${'q'.repeat(4000)}${i}'`;
    await (await fetch(`${server.origin}/ogc/collections/benelux_rd/items?filter=${encodeURIComponent(filter)}&limit=1`, { headers: { 'X-API-Key': key } })).arrayBuffer();
  }
  console.log(`3,000 distinct /ogc filters of 4 KB: RSS ${before.toFixed(0)} -> ${rssMb().toFixed(0)} MB`);

  const stalled: ClientRequest[] = [];
  for (let i = 0; i < 40; i++) {
    const asked = request(`${server.origin}/ogc/collections/points/items?limit=1000&offset=${i * 1000}`, { headers: { 'X-API-Key': key } });
    asked.on('response', (response) => response.pause());
    asked.on('error', () => undefined);
    asked.end();
    stalled.push(asked);
  }
  let peak = 0;
  let worst = 0;
  let answered = 0;
  for (let i = 0; i < 60; i++) {
    const started = performance.now();
    const response = await fetch(`${server.origin}/REST/v1/shapefiles/images?file=points&fid=${i}&format=png&key=${key}`);
    await response.arrayBuffer();
    if (response.status === 200) answered++;
    worst = Math.max(worst, performance.now() - started);
    peak = Math.max(peak, rssMb());
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  console.log(`40 clients that never read /ogc pages: peak RSS ${peak.toFixed(0)} MB; small pngs ${answered}/60 answered, the slowest in ${worst.toFixed(0)} ms`);
  for (const asked of stalled) asked.destroy();
} finally {
  await server.stop();
}
