/**
 * Selecting by attributes on the million-parcel file: `where=` filters that read every row
 * of the .dbf (only the fields they name, no geometry), timed one request at a time, and
 * `/ogc` pages, deep ones included.
 */
import { serverCommand, startServerProcess, type RuntimeName } from './server-process.ts';

export interface SelectBenchOptions {
  runtime: RuntimeName;
  dataDir: string;
  features: number;
  key: string;
  /** Requests per row. */
  repeats: number;
}

export async function runSelectBench(options: SelectBenchOptions): Promise<string[][]> {
  const { key, features } = options;
  const images = (where: string) => `/REST/v1/shapefiles/images?file=parcels&where=${encodeURIComponent(where)}&size=64,64&format=png&key=${key}`;
  const middle = Math.floor(features / 2);
  const requests: [string, string][] = [
    [`where ID = ${middle} (one match)`, images(`ID = ${middle}`)],
    [`where NAAM = 'perceel ${middle}'`, images(`NAAM = 'perceel ${middle}'`)],
    [`where NAAM LIKE '%l ${middle}' AND ID > 0`, images(`NAAM LIKE '%l ${middle}' AND ID > 0`)],
    ['ogc items, first page of 100', `/ogc/collections/parcels/items?limit=100&key=${key}`],
    [`ogc items, page of 100 at offset ${middle}`, `/ogc/collections/parcels/items?limit=100&offset=${middle}&key=${key}`],
    [`ogc items, filter ID < 100, page of 100`, `/ogc/collections/parcels/items?limit=100&filter=${encodeURIComponent('ID < 100')}&key=${key}`],
  ];
  const server = await startServerProcess(
    serverCommand(options.runtime),
    { SHAPESHOT_DATA: options.dataDir, SHAPESHOT_KEYS: key, SHAPESHOT_PORT: '0', SHAPESHOT_LOG_LEVEL: 'warn' },
    `/REST/v1/shapefiles/images?file=parcels&fid=0&key=${key}`,
  );
  const rows: string[][] = [];
  try {
    for (const [label, path] of requests) {
      const times: number[] = [];
      let status = 0;
      for (let i = 0; i < options.repeats; i++) {
        const started = performance.now();
        const response = await fetch(`${server.origin}${path}`);
        await response.arrayBuffer();
        times.push(performance.now() - started);
        status = response.status;
      }
      times.sort((a, b) => a - b);
      const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
      rows.push([label, String(status), at(0), at(0.5), at(1)]);
    }
  } finally {
    await server.stop();
  }
  return rows;
}
