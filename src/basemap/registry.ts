/**
 * The configured basemap providers: plugins loaded with dynamic import at start-up, one
 * provider per configured id, and the provider that serves each map type. A provider that
 * is unavailable hands the map to its configured fallback, if any.
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import type { BasemapsConfig } from '../config/schema.ts';
import {
  BasemapUnavailableError,
  MAP_TYPES,
  type Basemap,
  type BasemapPlugin,
  type BasemapProvider,
  type BasemapRequest,
} from './provider.ts';

export interface BasemapRegistry {
  /** The basemap of `request.type` from its provider, or from the fallbacks when that one is unavailable. */
  render(request: BasemapRequest): Promise<Basemap>;
  close(): Promise<void>;
}

const PLUGINS_DIR = fileURLToPath(new URL('../../plugins/', import.meta.url));

/** Loads and creates every configured provider; throws, naming the provider, when one cannot start. */
export async function createBasemapRegistry(config: BasemapsConfig, logger: Logger): Promise<BasemapRegistry> {
  checkReferences(config);
  const providers = new Map<string, BasemapProvider>();
  try {
    for (const [id, entry] of Object.entries(config.providers)) {
      const plugin = await loadPlugin(id, entry.plugin);
      const context = {
        name: id,
        logger: logger.child({ basemap: id }),
        userAgent: config.userAgent,
        ...(config.cacheDir === undefined ? {} : { cacheDir: join(resolve(config.cacheDir), id) }),
      };
      try {
        providers.set(id, await plugin.create(entry.options, context));
      } catch (error) {
        throw new Error(`Basemap provider '${id}' (plugin '${entry.plugin}') cannot start: ${(error as Error).message}`);
      }
    }
  } catch (error) {
    await closeAll(providers.values());
    throw error;
  }

  const renderWith = async (id: string, request: BasemapRequest): Promise<Basemap> => {
    try {
      return await providers.get(id)!.render(request);
    } catch (error) {
      const fallback = config.providers[id].fallback;
      if (!(error instanceof BasemapUnavailableError) || fallback === undefined || request.signal.aborted) throw error;
      logger.warn({ basemap: id, fallback, reason: error.message }, 'basemap provider unavailable; using its fallback');
      return renderWith(fallback, request);
    }
  };

  return {
    render: (request) => renderWith(config.types[request.type], request),
    close: () => closeAll(providers.values()),
  };
}

/** Every type and fallback names a configured provider, and no chain of fallbacks loops. */
function checkReferences(config: BasemapsConfig): void {
  const known = (id: string) => Object.hasOwn(config.providers, id);
  const ids = Object.keys(config.providers).join(', ') || 'none';
  for (const type of MAP_TYPES) {
    const id = config.types[type];
    if (!known(id)) throw new Error(`Map type '${type}' names basemap provider '${id}', which is not configured (configured: ${ids}).`);
  }
  for (const [id, entry] of Object.entries(config.providers)) {
    const seen = [id];
    for (let next = entry.fallback; next !== undefined; next = config.providers[next].fallback) {
      if (!known(next)) throw new Error(`Basemap provider '${seen.at(-1)}' falls back to '${next}', which is not configured (configured: ${ids}).`);
      if (seen.includes(next)) throw new Error(`Basemap fallbacks loop: ${[...seen, next].join(' -> ')}.`);
      seen.push(next);
    }
  }
}

/**
 * A plugin named by folder (plugins/<name>/index.ts) or by path (a module, or a folder
 * holding index.ts), relative to the working directory.
 */
async function loadPlugin(id: string, plugin: string): Promise<BasemapPlugin> {
  const isName = /^[\w-]+$/.test(plugin);
  const path = isName ? join(PLUGINS_DIR, plugin, 'index.ts') : moduleFile(resolve(plugin));
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (error) {
    throw new Error(`Basemap provider '${id}': cannot load plugin '${plugin}' from ${path}: ${(error as Error).message}`);
  }
  const candidate = module.default as Partial<BasemapPlugin> | undefined;
  if (typeof candidate?.create !== 'function') {
    throw new Error(`Basemap provider '${id}': plugin '${plugin}' (${path}) has no default export with a create(options, context) function.`);
  }
  return candidate as BasemapPlugin;
}

function moduleFile(path: string): string {
  const isFolder = statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  return isFolder ? join(path, 'index.ts') : path;
}

async function closeAll(providers: Iterable<BasemapProvider>): Promise<void> {
  await Promise.allSettled([...providers].map((provider) => provider.close?.()));
}
