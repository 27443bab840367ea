import { bunRuntime } from '../runtime/bun.ts';
import { runServer } from './run-server.ts';

/** Bun entry point: `bun run start` (through start.js) or `bun src/server/bun.ts`. */
await runServer(bunRuntime);
