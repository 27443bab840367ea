/**
 * Deno's entry point (README.md, "Runtimes"): `deno task start` runs it directly, not through
 * start.js, with the permissions deno.json grants. One file per runtime, so that each loads only
 * its own server adapter (runtime/).
 */
import { denoRuntime } from '../runtime/deno.ts';
import { runServer } from './run-server.ts';

/** Deno entry point: `deno task start` (deno.json holds the permissions it needs). */
await runServer(denoRuntime);
