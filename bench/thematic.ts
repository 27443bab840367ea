/**
 * npm run bench's thematic section: what colours, labels and a legend cost on a picture
 * (issue 21 asks at most twice the plain picture), and what a kept classification saves.
 */
import { fileURLToPath } from 'node:url';
import { load, measureRow } from './load.ts';
import { serverCommand, startServerProcess, type RuntimeName } from './server-process.ts';

export interface ThematicBenchOptions {
  runtime: RuntimeName;
  seconds: number;
  key: string;
}

/**
 * Issue 21's target: a choropleth of every country of the sample data in one 640×480 PNG,
 * with labels and legend, against the same image plain (the issue asks for at most twice the
 * cost). The classes are made once and kept (per file version), as in service; the labels
 * are placed and the legend drawn on every request. Rows as measureRow() gives them.
 */
export async function runThematicBench({ runtime, seconds, key }: ThematicBenchOptions): Promise<string[][]> {
  const sampleData = fileURLToPath(new URL('../data/', import.meta.url));
  const countries = `/REST/v1/shapefiles/images?file=countries&where=${encodeURIComponent('NAME IS NOT NULL')}&singleImage=1&format=png&key=${key}`;
  const choropleth = `${countries}&styleBy=REGION&labelField=NAME&legend=1`;
  const server = await startServerProcess(
    serverCommand(runtime),
    { SHAPESHOT_DATA: sampleData, SHAPESHOT_KEYS: key, SHAPESHOT_PORT: '0', SHAPESHOT_LOG_LEVEL: 'warn' },
    choropleth,
  );
  const rows: string[][] = [];
  try {
    await load({ origin: server.origin, paths: [countries, choropleth], connections: 2, seconds: 2 }); // warm-up
    for (const connections of [1, 8]) {
      rows.push(await measureRow(server, 'countries plain', [countries], connections, seconds));
      rows.push(await measureRow(server, 'countries styled', [choropleth], connections, seconds));
    }
  } finally {
    await server.stop();
  }
  return rows;
}
