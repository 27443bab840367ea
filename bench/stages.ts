/**
 * Where each millisecond of an image goes: the server runs with Server-Timing on, and one
 * client (or eight) asks for random features; the stages its answers report are averaged
 * per request, and what the client waited beyond them is the HTTP layer outside the app
 * (Node's parser, the sockets, the client). With BENCH_PROFILE=1 the server also writes
 * V8 CPU profiles, summarized per thread (bench/profile.ts).
 */
import { Agent, request } from 'node:http';
import { summarizeProfiles } from './profile.ts';
import { serverCommand, startServerProcess, type RuntimeName } from './server-process.ts';

export interface StageBenchOptions {
  runtime: RuntimeName;
  /** Label → data folder, file name and feature count. */
  files: { label: string; dataDir: string; file: string; features: number }[];
  key: string;
  requests: number;
  profileDir?: string;
}

export async function runStageBench({ runtime, files, key, requests, profileDir }: StageBenchOptions): Promise<string[]> {
  const lines: string[] = [];
  for (const { label, dataDir, file, features } of files) {
    const path = (fid: number) => `/REST/v1/shapefiles/images?file=${file}&fid=${fid}&format=png&key=${key}`;
    const command = serverCommand(runtime);
    if (profileDir && runtime === 'node') command.splice(1, 0, '--cpu-prof', `--cpu-prof-dir=${profileDir}/${label}`);
    const server = await startServerProcess(
      command,
      { SHAPESHOT_DATA: dataDir, SHAPESHOT_KEYS: key, SHAPESHOT_PORT: '0', SHAPESHOT_LOG_LEVEL: 'warn', SHAPESHOT_SERVER_TIMING: '1' },
      path(0),
    );
    try {
      for (const connections of [1, 8]) {
        const random = () => path(Math.floor(Math.random() * features));
        await measure(server.origin, random, 200, connections); // warm-up
        const cpuBefore = server.cpuMs();
        const { stages, clientMs, count } = await measure(server.origin, random, requests, connections);
        const cpuMs = (server.cpuMs() - cpuBefore) / count;
        lines.push(`${label}, ${connections} connection(s), ${count} requests: CPU ${cpuMs.toFixed(2)} ms per image (all threads)`);
        lines.push(...table(stages, clientMs, count));
      }
    } finally {
      await server.stop();
    }
    if (profileDir && runtime === 'node') lines.push(`CPU profile, ${label} (self time, top functions per thread):`, ...summarizeProfiles(`${profileDir}/${label}`));
  }
  return lines;
}

async function measure(origin: string, nextPath: () => string, requests: number, connections: number) {
  const { hostname, port } = new URL(origin);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const stages: Record<string, number> = {};
  let clientMs = 0;
  let count = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (count < requests) {
        count++;
        const sent = performance.now();
        const timing = await new Promise<string>((resolve, reject) => {
          const req = request({ host: hostname, port, path: nextPath(), agent }, (response) => {
            response.resume();
            response.on('end', () => resolve(String(response.headers['server-timing'] ?? '')));
          });
          req.on('error', reject);
          req.end();
        });
        clientMs += performance.now() - sent;
        for (const entry of timing.split(',')) {
          const match = /^\s*([\w-]+);dur=([\d.]+)/.exec(entry);
          if (match) stages[match[1]] = (stages[match[1]] ?? 0) + Number(match[2]);
        }
      }
    }),
  );
  agent.destroy();
  return { stages, clientMs, count };
}

function table(stages: Record<string, number>, clientMs: number, count: number): string[] {
  const inApp = Object.values(stages).reduce((sum, ms) => sum + ms, 0);
  const rows: [string, number][] = [...Object.entries(stages), ['(outside the app: HTTP parser, sockets, client)', clientMs - inApp]];
  return [
    ...rows.map(([stage, ms]) => `  ${stage.padEnd(48)} ${(ms / count).toFixed(3).padStart(8)} ms`),
    `  ${'client latency'.padEnd(48)} ${(clientMs / count).toFixed(3).padStart(8)} ms`,
  ];
}
