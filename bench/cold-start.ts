/**
 * Cold start (issue 31): five fresh server processes, started as `npm start` starts them on
 * the bundled sample data, each timed from spawn to its first answer: an image in some, a
 * map over the embedded basemap in others. The targets are 1 s to the first image and
 * 1.5 s to the first map on Node (README.md, "Benchmark").
 */
import { median } from './load.ts';
import { serverCommand, startServerProcess } from './server-process.ts';

const KEY = 'bench-key-0123456789';
const RUNS = 5;


const FIRST_ANSWERS = {
  image: `/REST/v1/shapefiles/images?file=benelux_rd&fid=0&theme=Ocean&format=png&key=${KEY}`,
  map: `/REST/v1/shapefiles/map?file=benelux_rd&culture=Dutch&format=png&key=${KEY}`,
};

export const COLD_START_HEADER = ['first answer', 'median ms', 'max ms', 'runs'];

export async function runColdStartBench(log: (line: string) => void): Promise<string[][]> {
  const rows: string[][] = [];
  for (const [name, path] of Object.entries(FIRST_ANSWERS)) {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const server = await startServerProcess(serverCommand('node'), { SHAPESHOT_KEYS: KEY, SHAPESHOT_PORT: '0', SHAPESHOT_LOG_LEVEL: 'warn' }, path);
      times.push(server.coldStartMs);
      await server.stop();
      log(`cold start to the first ${name}: ${server.coldStartMs.toFixed(0)} ms`);
    }
    rows.push([name, median(times).toFixed(0), Math.max(...times).toFixed(0), String(RUNS)]);
  }
  return rows;
}
