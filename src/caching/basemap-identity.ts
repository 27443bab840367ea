/**
 * The basemap's part of a map's ETag: the providers that may draw a map type, with their
 * options, fixed by the configuration until a restart. The tiles they fetch are not part of it
 * (docs/api.md, "Caching"): a tile server's new tiles show once something in the tag changes.
 */
import type { BasemapsConfig } from '../config/schema.ts';
import type { MapType } from '../plugin-contract/basemap-plugin.ts';

/**
 * The basemap providers that may draw a map of `type`: the one configured for it and the
 * fallbacks after it, each with its plugin and options (hashed into the map's ETag).
 * Settings that change how tiles are fetched but not what they show (user agent, cache
 * folder) are left out.
 */
export function basemapIdentity(basemaps: BasemapsConfig, type: MapType) {
  const providers: { id: string; plugin: string; options: Record<string, unknown> }[] = [];
  for (let id: string | undefined = basemaps.types[type]; id !== undefined; id = basemaps.providers[id].fallback) {
    providers.push({ id, plugin: basemaps.providers[id].plugin, options: basemaps.providers[id].options });
  }
  return providers;
}
