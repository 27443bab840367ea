#!/usr/bin/env node
/**
 * Node's entry point (README.md, "Runtimes"): `npm start` reaches it through start.js, which in
 * a clone runs its bundle (node-bundle.js). Started by hand, run it with `node --single-threaded-gc`
 * (the flag cannot be set at run time). One file per runtime: each loads only its own adapter.
 */
import { nodeRuntime } from '../runtime/node.ts';
import { runServer } from './run-server.ts';

/** Node entry point: `npm start` (through start.js), or `node --import tsx src/server/node.ts` when working on it. */
await runServer(nodeRuntime);
