#!/usr/bin/env node
/**
 * `npx shapeshot`, `npm start` and `bun run start` run this (bunfig.toml has Bun run package
 * scripts with Bun): it starts this runtime's entry point, the one place that tells the two
 * apart. It is package.json's "bin" because it works in both places a user has shapeshot:
 * a clone, before or without `npm run build`, runs the sources; the installed package, which
 * has this file (npm packs a "bin" whatever "files" says) but not the sources, runs dist/.
 * Plain JavaScript, because Node cannot import TypeScript: in a clone it runs the entry's bundle
 * (node-bundle.js).
 * `deno task start` starts src/server/deno.ts directly.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const inClone = existsSync(fileURLToPath(new URL('./node.ts', import.meta.url)));
const built = new URL('../../dist/src/server/', import.meta.url);

if (!inClone) {
  await import(new URL(process.versions.bun ? 'bun.js' : 'node.js', built).href);
} else if (process.versions.bun) {
  await import('./bun.ts');
} else {
  const { bundledForNode } = await import('../node-bundle.js');
  await import((await bundledForNode(new URL('./node.ts', import.meta.url))).href);
}
