/**
 * Bun's entry point (README.md, "Runtimes"): `bun run start` reaches it through start.js. One
 * file per runtime, so that each loads only its own server adapter (runtime/); run-server.ts
 * does the rest once for all three.
 */
import { bunRuntime } from '../runtime/bun.ts';
import { runServer } from './run-server.ts';

/** Bun entry point: `bun run start` (through start.js) or `bun src/server/bun.ts`. */
await runServer(bunRuntime);
