/**
 * The configured basemap providers: plugins loaded with dynamic import at start-up, one
 * provider per configured id, and the provider that serves each map type. A provider that
 * is unavailable hands the map to its configured fallback, if any.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { BasemapsConfig } from '../config/schema.ts';
import { ServiceError } from '../errors.ts';
import { isFolder, moduleFile, pluginModule } from '../module-file.ts';
import {
  MAP_TYPES,
  type Basemap,
  type BasemapPlugin,
  type BasemapProvider,
  type BasemapRequest,
  type MapType,
  type ProviderMetrics,
} from '../plugin-contract/basemap-plugin.ts';
import { BASEMAP_PLUGIN, loadPlugin } from '../plugin-contract/load-plugin.ts';
import { BasemapUnavailableError, isBasemapUnavailable } from '../plugin-contract/unavailable.ts';
import { oversizedBasemapImage } from './image-bounds.ts';

/** A basemap, and whether a fallback drew it (its provider was unavailable): a picture not to be kept. */
export type DrawnBasemap = Basemap & { byFallback: boolean };

export interface BasemapRegistry {
  /** The basemap of `request.type` from its provider, or from the fallbacks when that one is unavailable. */
  render(request: BasemapRequest): Promise<DrawnBasemap>;
  /** Map types whose latest map, if drawn within the last `withinMs`, failed: no provider of its chain could draw it. */
  failingTypes(withinMs: number): MapType[];
  close(): Promise<void>;
}

/**
 * Loads and creates every configured provider; throws, naming the provider, when one cannot
 * start. `metricsFor` gives each provider where to count its tiles.
 */
export async function createBasemapRegistry(
  config: BasemapsConfig,
  logger: Logger,
  metricsFor?: (provider: string) => ProviderMetrics,
): Promise<BasemapRegistry> {
  checkReferences(config);
  const providers = new Map<string, BasemapProvider>();
  try {
    for (const [id, entry] of Object.entries(config.providers)) {
      const plugin = await loadBasemapPlugin(id, entry.plugin);
      const context = {
        name: id,
        logger: logger.child({ basemap: id }),
        userAgent: config.userAgent,
        ...(config.cacheDir === undefined ? {} : { cacheDir: join(resolve(config.cacheDir), id) }),
        metrics: metricsFor?.(id),
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

  const renderWith = async (id: string, request: BasemapRequest): Promise<DrawnBasemap> => {
    try {
      const basemap = await providers.get(id)!.render(request);
      const oversized = oversizedBasemapImage(basemap, request.view.devicePixelRatio);
      if (oversized !== undefined) throw new BasemapUnavailableError(id, oversized);
      return { ...basemap, byFallback: id !== config.types[request.type] };
    } catch (error) {
      if (!isBasemapUnavailable(error)) throw error;
      const fallback = config.providers[id].fallback;
      if (fallback === undefined || request.signal.aborted) throw new ServiceError(503, error.message, error.retryAfterSeconds);
      logger.warn({ basemap: id, fallback, reason: error.message }, 'basemap provider unavailable; using its fallback');
      return renderWith(fallback, request);
    }
  };

  /** When each map type's latest map failed, until one is drawn again (performance.now()). */
  const failedAt = new Map<MapType, number>();

  return {
    async render(request) {
      try {
        const basemap = await renderWith(config.types[request.type], request);
        failedAt.delete(request.type);
        return basemap;
      } catch (error) {
        // A map whose client left or whose time ran out says nothing about its providers.
        if (!request.signal.aborted) failedAt.set(request.type, performance.now());
        throw error;
      }
    },
    failingTypes: (withinMs) => [...failedAt].filter(([, at]) => performance.now() - at <= withinMs).map(([type]) => type),
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

/** A plugin named as one of ours (a folder in plugins/); else by path or npm package name (module-file.ts, pluginModule). */
async function loadBasemapPlugin(id: string, plugin: string): Promise<BasemapPlugin> {
  try {
    return await loadPlugin<BasemapPlugin>(plugin, BASEMAP_PLUGIN, pluginSpecifier(plugin));
  } catch (error) {
    throw new Error(`Basemap provider '${id}': ${(error as Error).message}`);
  }
}

function pluginSpecifier(plugin: string): string {
  const builtIn = new URL(`../../plugins/${plugin}/index.ts`, import.meta.url);
  if (/^[\w-]+$/.test(plugin) && isFolder(fileURLToPath(new URL('.', builtIn)))) return moduleFile(builtIn).href;
  return pluginModule(plugin);
}

async function closeAll(providers: Iterable<BasemapProvider>): Promise<void> {
  await Promise.allSettled([...providers].map((provider) => provider.close?.()));
}
