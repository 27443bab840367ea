/**
 * Worker threads run TypeScript modules. Deno and Bun load them as they are; Node (20, without
 * type stripping) starts the entry's bundle (node-bundle.js), which is also what keeps tsx's
 * loader, which does not reach worker threads, out of them.
 */
import { bundledForNode } from '../node-bundle.js';
import { moduleFile } from '../module-file.ts';

/** A URL the runtime's Worker can start for the module `source` (TypeScript, or its build). */
export function workerModule(source: URL): Promise<URL> {
  const entry = moduleFile(source);
  // The published build: JavaScript all the way down, which Node loads as it is.
  if (runsTypeScript() || entry !== source) return Promise.resolve(entry);
  return bundledForNode(entry);
}

function runsTypeScript(): boolean {
  return process.versions.bun !== undefined || process.versions.deno !== undefined;
}
