#!/usr/bin/env node
import { nodeRuntime } from '../runtime/node.ts';
import { runServer } from './run-server.ts';

/** Node entry point: `npm start` (through start.js) or `node --import tsx src/server/node.ts`. */
await runServer(nodeRuntime);
