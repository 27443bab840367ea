/**
 * How a module is found at run time, in a clone or in the published build: one of ours (worker
 * entries, built-in plugins) named by a URL the compiler does not rewrite, or a plugin the
 * configuration names by path or package name. A foundation (it imports nothing of ours), since
 * the worker pool and the plugin loaders, at different layers, all use it.
 */
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * A module of ours named by its TypeScript source, or the JavaScript it was built to: the
 * published package ships only the build (npm run build), and a `new URL('./x.ts',
 * import.meta.url)` is not rewritten by the compiler the way an import is.
 */
export function moduleFile(source: URL): URL {
  if (!source.pathname.endsWith('.ts') || existsSync(fileURLToPath(source))) return source;
  return new URL(source.href.replace(/\.ts$/, '.js'));
}

/**
 * What to import for a plugin that is not one of ours (basemap providers and data sources
 * alike): by path (a module, or a folder holding index.js or index.ts), relative to the
 * working directory, when it starts with `.` or `/` or names something there; else by npm
 * package name, resolved from the working directory (the project that installed shapeshot
 * and the plugin), then from shapeshot's own place.
 */
export function pluginModule(plugin: string): string {
  const path = resolve(plugin);
  if (plugin.startsWith('.') || isAbsolute(plugin) || existsSync(path)) return pathToFileURL(pluginPath(path)).href;
  try {
    return pathToFileURL(createRequire(join(process.cwd(), 'package.json')).resolve(plugin)).href;
  } catch {
    // A package that only an ESM `import` condition exports; Node resolves it from here.
    return plugin;
  }
}

/** A folder stands for its index module: the JavaScript if it has one (runtimes without a TypeScript loader need it). */
function pluginPath(path: string): string {
  if (!isFolder(path)) return path;
  const javascript = join(path, 'index.js');
  return existsSync(javascript) ? javascript : join(path, 'index.ts');
}

export function isFolder(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
