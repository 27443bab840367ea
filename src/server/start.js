/**
 * `npm start` and `bun run start` run this (bunfig.toml has Bun run package scripts with
 * Bun): it starts this runtime's entry point, the one place that tells the two apart.
 * Plain JavaScript, because Node needs tsx's loader before it can import TypeScript.
 * `deno task start` starts src/server/deno.ts directly.
 */
if (process.versions.bun) {
  await import('./bun.ts');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./node.ts');
}
