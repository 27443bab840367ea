import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, measureRow } from './load.ts';
import { serverCommand, startServerProcess, type RuntimeName } from './server-process.ts';
import { startTileServer } from './tile-server-process.ts';

export interface MapBenchOptions {
  runtime: RuntimeName;
  dataDir: string;
  features: number;
  seconds: number;
  key: string;
}

/** Feature ids a warm-cache run cycles through: few enough that their tiles stay in memory. */
const WARM_FIDS = 16;

/**
 * The map operation at 640x480 on the parcels: xyz tiles from a tile server on loopback with
 * a warm memory cache (a few features, tiles fetched once) and a cold one (a provider without
 * cache, every tile fetched for every map), and the embedded provider when it is installed.
 * Returns table rows: provider, conc, req/s, p50 ms, p99 ms, CPU ms/map, failed.
 */
export async function runMapBench({ runtime, dataDir, features, seconds, key }: MapBenchOptions): Promise<string[][]> {
  const tiles = await startTileServer();
  const configDir = mkdtempSync(join(tmpdir(), 'shapeshot-bench-'));
  const hasEmbedded = existsSync(new URL('../plugins/embedded/index.ts', import.meta.url));
  const providers = {
    warm: { plugin: 'xyz', options: { url: tiles.template, attribution: '© bench tiles' } },
    cold: { plugin: 'xyz', options: { url: tiles.template, attribution: '© bench tiles', cacheBytes: 0 } },
    ...(hasEmbedded ? { embedded: { plugin: 'embedded' } } : {}),
  };
  const types = { Road: 'warm', AerialWithLabels: 'cold', Aerial: hasEmbedded ? 'embedded' : 'warm' };
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ basemaps: { providers, types } }));

  const mapPath = (fid: number, type: string) => `/REST/v1/shapefiles/map?file=parcels&fid=${fid}&type=${type}&format=png&key=${key}`;
  const randomFid = () => Math.floor(Math.random() * features);
  const warmPaths = Array.from({ length: WARM_FIDS }, (_, i) => mapPath(Math.floor((i * features) / WARM_FIDS), 'Road'));
  const randomPaths = (type: string) => Array.from({ length: 20_000 }, () => mapPath(randomFid(), type));

  const server = await startServerProcess(
    serverCommand(runtime),
    {
      SHAPESHOT_CONFIG: join(configDir, 'config.json'),
      SHAPESHOT_DATA: dataDir,
      SHAPESHOT_KEYS: key,
      SHAPESHOT_PORT: '0',
      SHAPESHOT_LOG_LEVEL: 'warn',
    },
    warmPaths[0],
  );
  const runs: [string, readonly string[]][] = [
    ['xyz warm', warmPaths],
    ['xyz cold', randomPaths('AerialWithLabels')],
    ...(hasEmbedded ? [['embedded', randomPaths('Aerial')] as [string, string[]]] : []),
  ];
  const rows: string[][] = [];
  try {
    await load({ origin: server.origin, paths: warmPaths, connections: 4, seconds: 2 }); // warm-up: fills the tile cache
    for (const [name, paths] of runs) {
      for (const connections of [1, 8]) rows.push(await measureRow(server, name, paths, connections, seconds));
    }
  } finally {
    await server.stop();
    await tiles.close();
  }
  return rows;
}

