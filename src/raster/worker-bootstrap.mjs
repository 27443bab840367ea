// Node cannot load a TypeScript worker by itself, and tsx's loader is not inherited by
// worker threads: register it in this thread, then load the worker named in workerData.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
