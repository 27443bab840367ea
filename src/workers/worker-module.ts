/**
 * Worker threads run TypeScript modules. Deno and Bun load them as they are. Node (20,
 * without type stripping) cannot, and tsx's loader does not reach worker threads:
 * registering it in each worker cost ~350 ms and 40 MB. So on Node the worker's own
 * modules are bundled once, at start-up, with esbuild (the compiler tsx itself runs on,
 * ~25 ms), into one JavaScript module held in memory and started from a data: URL. Packages
 * are not bundled: each import of one is pointed at its absolute file URL, so the worker
 * loads the very same package files as the main thread.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { moduleFile } from '../module-file.ts';

const bundles = new Map<string, Promise<URL>>();
/** Marks the resolution the plugin asks esbuild for, so that it does not answer itself. */
const RESOLVING = Symbol('resolving');

/** A URL the runtime's Worker can start for the module `source` (TypeScript, or its build). */
export function workerModule(source: URL): Promise<URL> {
  const entry = moduleFile(source);
  // The published build: JavaScript all the way down, which Node loads as it is.
  if (runsTypeScript() || entry !== source) return Promise.resolve(entry);
  let bundle = bundles.get(entry.href);
  if (!bundle) {
    bundle = bundleForNode(entry);
    bundles.set(entry.href, bundle);
  }
  return bundle;
}

function runsTypeScript(): boolean {
  return process.versions.bun !== undefined || process.versions.deno !== undefined;
}

async function bundleForNode(entry: URL): Promise<URL> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    write: false,
    logLevel: 'silent',
    // Modules that ask where they are (import.meta.url) are told the entry's place: they
    // only resolve package files from it, which any place in the project does alike.
    define: { 'import.meta.url': JSON.stringify(entry.href) },
    plugins: [
      {
        name: 'packages-by-absolute-url',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, async ({ path, kind, resolveDir, pluginData }) => {
            if (path.startsWith('node:')) return { path, external: true };
            if (pluginData === RESOLVING) return undefined;
            const resolved = await build.resolve(path, { kind, resolveDir, pluginData: RESOLVING });
            if (resolved.errors.length > 0) return { errors: resolved.errors };
            return { path: pathToFileURL(resolved.path).href, external: true };
          });
        },
      },
    ],
  });
  const code = result.outputFiles[0].text;
  return new URL(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}
