/**
 * npm run bench's thematic section: what colours, labels and a legend cost on a picture
 * (issue 21 asks at most twice the plain picture), and what a kept classification saves
 * (the million parcels' classes: under a second cold, free when kept).
 */
import { fileURLToPath } from 'node:url';
import { load, measureRow } from './load.ts';
import { serverCommand, startServerProcess, type RuntimeName } from './server-process.ts';

export interface ThematicBenchOptions {
  runtime: RuntimeName;
  seconds: number;
  key: string;
  /** The folder of the million parcels (run.ts builds it). */
  parcelsDir: string;
}

/**
 * Issue 21's target: a choropleth of every country of the sample data in one 640×480 PNG,
 * with labels and legend, against the same image plain (the issue asks for at most twice the
 * cost). The classes are made once and kept (per file version), as in service; the labels
 * are placed and the legend drawn on every request. Rows as measureRow() gives them.
 */
export async function runThematicBench({ runtime, seconds, key, parcelsDir }: ThematicBenchOptions): Promise<string[][]> {
  return [...(await choroplethRows(runtime, seconds, key)), ...(await keptClassesRows(runtime, seconds, key, parcelsDir))];
}

async function choroplethRows(runtime: RuntimeName, seconds: number, key: string): Promise<string[][]> {
  const sampleData = fileURLToPath(new URL('../data/', import.meta.url));
  const countries = `/REST/v1/shapefiles/images?file=countries&where=${encodeURIComponent('NAME IS NOT NULL')}&singleImage=1&format=png&key=${key}`;
  const choropleth = `${countries}&styleBy=REGION&labelField=NAME&legend=1`;
  const graduated = `${countries}&styleBy=AREA_KM2&classify=quantile&labelField=NAME&legend=1`;
  const server = await startServerProcess(
    serverCommand(runtime),
    { SHAPESHOT_DATA: sampleData, SHAPESHOT_KEYS: key, SHAPESHOT_PORT: '0', SHAPESHOT_LOG_LEVEL: 'warn' },
    choropleth,
  );
  const rows: string[][] = [];
  try {
    await load({ origin: server.origin, paths: [countries, choropleth, graduated], connections: 2, seconds: 2 }); // warm-up
    for (const connections of [1, 8]) {
      rows.push(await measureRow(server, 'countries plain', [countries], connections, seconds));
      rows.push(await measureRow(server, 'countries by REGION', [choropleth], connections, seconds));
      rows.push(await measureRow(server, 'countries by AREA_KM2', [graduated], connections, seconds));
    }
  } finally {
    await server.stop();
  }
  return rows;
}

/**
 * The legend of the million parcels' ID in quantiles, as JSON: the first request classifies
 * (a worker's pass over the `.dbf`), every later one answers from the kept classes.
 */
async function keptClassesRows(runtime: RuntimeName, seconds: number, key: string, parcelsDir: string): Promise<string[][]> {
  const legend = `/REST/v1/shapefiles/legend?file=parcels&styleBy=ID&classify=quantile&format=json&key=${key}`;
  const server = await startServerProcess(
    serverCommand(runtime),
    { SHAPESHOT_DATA: parcelsDir, SHAPESHOT_KEYS: key, SHAPESHOT_PORT: '0', SHAPESHOT_LOG_LEVEL: 'warn' },
    `/REST/v1/shapefiles/images?file=parcels&fid=0&format=png&key=${key}`,
  );
  try {
    const started = performance.now();
    const first = await fetch(`${server.origin}${legend}`);
    await first.arrayBuffer();
    const coldMs = performance.now() - started;
    const kept = await measureRow(server, 'parcels legend, kept', [legend], 1, seconds);
    return [['parcels legend, first', '1', '', coldMs.toFixed(1), '', '', first.ok ? '0' : '1'], kept];
  } finally {
    await server.stop();
  }
}
