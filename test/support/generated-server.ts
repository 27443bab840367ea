/**
 * The server generated requests go to: the real entry point as its own process (so that a
 * request that kills it or eats its memory shows as such, and cannot take the test runner
 * with it), over shapefiles the test generates, with one configured key. What the requests
 * are generated from comes from the server itself: its /openapi.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeGeneratedData, type GeneratedFile } from './generated-data.ts';
import type { DescribedParameter, GenerationContext } from './request-arbitraries.ts';
import { spawnServer, type SpawnedServer } from './spawned-server.ts';
import { makeTempDir } from './temp-dir.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** A key no answer may ever quote. */
export const GENERATED_KEY = 'gen-key-7f3a9c2e51d4';

/**
 * The server's V8 heap cap: past it the process dies, which the tests see. Far above what
 * any admitted answer may hold, far below what would crowd a shared test machine.
 */
const MAX_OLD_SPACE_MB = 2048;

export interface GeneratedServer {
  server: SpawnedServer;
  pid: number;
  files: GeneratedFile[];
  context: GenerationContext;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: DescribedParameter[] }>>;
}

/** Writes the shapefiles, starts the server on them, waits until it is ready and reads its API description. */
export async function startGeneratedServer({ points, limits = {} }: { points: number; limits?: Record<string, number> }): Promise<GeneratedServer> {
  const folder = makeTempDir('shapeshot-generated-');
  const dataDir = join(folder, 'data');
  mkdirSync(dataDir);
  const files = writeGeneratedData(dataDir, { points });
  const configFile = join(folder, 'config.json');
  writeFileSync(configFile, JSON.stringify({ dataDir, keys: [{ key: GENERATED_KEY }], logLevel: 'error', limits }));
  const server = await spawnServer(
    ['node', '--single-threaded-gc', `--max-old-space-size=${MAX_OLD_SPACE_MB}`, '--import', 'tsx', 'src/server/node.ts', '--config', configFile, '--port', '0'],
    REPO,
  );
  await untilReady(server.origin);
  const description = (await (await fetch(`${server.origin}/openapi.json`)).json()) as OpenApiDocument;
  const { maxIds = 1000, maxSize = 4096 } = limits;
  return {
    server,
    pid: server.process.pid!,
    files,
    context: {
      key: GENERATED_KEY,
      files,
      maxIds,
      maxSize,
      parameters(path) {
        const operation = description.paths[path]?.get;
        if (!operation) throw new Error(`/openapi.json describes no GET ${path}`);
        return operation.parameters ?? [];
      },
    },
  };
}

/** /ready answers 200 once a drawing worker serves; asked again each time it says not yet. */
async function untilReady(origin: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if ((await fetch(`${origin}/ready`)).status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the server never became ready');
}
