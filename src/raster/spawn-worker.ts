import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread on the JavaScript module `entry`. Worker modules are plain
 * JavaScript so that every runtime (Node without tsx, Deno, Bun) starts them directly:
 * tsx's loader is not inherited by worker threads, and registering it in each one cost
 * about 350 ms and 40 MB per worker.
 */
export function spawnWorker(entry: URL): Worker {
  return new Worker(entry);
}
