import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread running the TypeScript module `entry`. The one runtime-specific
 * step of the worker pool: Deno and Bun run TypeScript workers natively, Node needs the
 * tsx loader registered inside the new thread first.
 */
export function spawnWorker(entry: URL): Worker {
  if (runsTypeScriptNatively()) return new Worker(entry);
  return new Worker(new URL('./worker-bootstrap.mjs', import.meta.url), { workerData: { entry: entry.href } });
}

function runsTypeScriptNatively(): boolean {
  return 'Deno' in globalThis || 'Bun' in globalThis;
}
