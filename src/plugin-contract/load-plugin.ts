/**
 * A plugin module loaded at start-up and held to the contract, whatever its kind: imported,
 * its default export checked to be a plugin of the kind configured and written for this SDK
 * version. Basemap providers (basemap/registry.ts, on the main thread) and data sources
 * (sources/registry.ts, on the main thread and on every drawing worker) load through this one
 * function, so that a plugin is found, refused and explained alike whatever it plugs into.
 * It sits here, below both registries, because the drawing workers load data sources and may
 * not reach up to basemap/.
 */
import { bundledForNode } from '../node-bundle.js';
import { pluginModule } from '../module-file.ts';
import { SDK_VERSION } from './basemap-plugin.ts';

/** A kind of plugin: the `kind` its default export carries (none for basemap plugins), and how a refusal describes it. */
export interface PluginKind {
  kind: 'data' | undefined;
  described: string;
}

export const BASEMAP_PLUGIN: PluginKind = { kind: undefined, described: "a basemap plugin (a create(options, context) function, and no 'kind')" };
export const DATA_SOURCE_PLUGIN: PluginKind = { kind: 'data', described: "a data-source plugin (kind: 'data' and a create(options, context) function)" };

/**
 * The default export of the plugin configured as `plugin`, imported from `specifier` (by
 * default a path or an npm package name: module-file.ts, pluginModule). Throws an Error
 * naming the plugin when it cannot be imported, is not a plugin of `kind`, or was written
 * for another SDK version; the caller says what the plugin was for.
 */
export async function loadPlugin<T>(plugin: string, kind: PluginKind, specifier = pluginModule(plugin)): Promise<T> {
  let module: { default?: unknown };
  try {
    module = (await importOnAnyRuntime(specifier)) as { default?: unknown };
  } catch (error) {
    throw new Error(`cannot load plugin '${plugin}': ${(error as Error).message}`);
  }
  const candidate = module.default as { kind?: unknown; sdkVersion?: unknown; create?: unknown } | undefined;
  if (candidate?.kind !== kind.kind || typeof candidate?.create !== 'function') {
    throw new Error(`plugin '${plugin}' has no default export that is ${kind.described}.`);
  }
  if (candidate.sdkVersion !== SDK_VERSION) {
    const written = typeof candidate.sdkVersion === 'number' ? `SDK version ${candidate.sdkVersion}` : 'no sdkVersion';
    throw new Error(`plugin '${plugin}' was written for ${written}; this shapeshot has SDK version ${SDK_VERSION}.`);
  }
  return candidate as T;
}

/**
 * What Node says of TypeScript it will not run: 20 does not know the extension; 22.18 and later
 * strip types, but not in node_modules, and not of syntax that needs compiling (enums).
 */
const TYPESCRIPT_NOT_RUN = new Set(['ERR_UNKNOWN_FILE_EXTENSION', 'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING', 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX']);

/**
 * A TypeScript plugin on Node without a loader (the server as start.js runs it) is imported
 * through its bundle (node-bundle.js); any other module, as it is. A plugin so bundled has its
 * own copy of the SDK, as a plugin installed from npm has: the contract compares nothing by identity.
 */
async function importOnAnyRuntime(specifier: string): Promise<unknown> {
  try {
    return await import(specifier);
  } catch (error) {
    if (!TYPESCRIPT_NOT_RUN.has(String((error as { code?: unknown }).code)) || !specifier.endsWith('.ts')) throw error;
    return await import((await bundledForNode(new URL(specifier))).href);
  }
}
