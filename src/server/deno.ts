import { denoRuntime } from '../runtime/deno.ts';
import { runServer } from './run-server.ts';

/** Deno entry point: `deno task start` (deno.json holds the permissions it needs). */
await runServer(denoRuntime);
