/**
 * xyz: raster tiles over HTTP from a URL template, e.g.
 * `https://{s}.tile.example.org/{z}/{x}/{y}.png` or Bing-style `.../{quadkey}.jpeg?mkt={culture}`.
 * Options: see plugins/README.md.
 */
import { z } from 'zod';
import { MAX_ZOOM, TILE_SIZE, tilesCovering, definePlugin, type BasemapProvider, type PlacedImage } from '../../src/sdk/plugin.ts';
import { createTileSource } from './tile-source.ts';
import { checkTemplate, tileUrl } from './tile-url.ts';

const optionsSchema = z
  .object({
    /** URL template with {z} {x} {y} {s} {r} {quadkey} {culture}. */
    url: z.string(),
    /** Hosts for {s}. */
    subdomains: z.union([z.array(z.string().min(1)), z.string()]).default([]),
    /** Text shown in the map's corner and added to the envelope's Copyright. */
    attribution: z.string().default(''),
    /** Language code that {culture} becomes, per culture of the request. */
    cultures: z.object({ English: z.string(), Dutch: z.string() }).strict().default({ English: 'en', Dutch: 'nl' }),
    /** The deepest zoom the server has tiles for; deeper maps scale its tiles up. */
    maxZoom: z.number().int().min(0).max(MAX_ZOOM).default(19),
    /**
     * Pixels of the server's tiles. 512-px tiles (Mapbox's, MapLibre's `tileSize: 512`) show
     * at zoom z what 256-px tiles show at z + 1: they are fetched a zoom out, each over 512 px.
     */
    tileSize: z.union([z.literal(256), z.literal(512)]).default(256),
    /** Per tile and attempt. */
    timeoutMs: z.number().int().min(1).default(5000),
    /** Further attempts after a timeout, a network error, 429 or 5xx. */
    retries: z.number().int().min(0).max(5).default(1),
    /** Bytes of tiles kept in memory; 0 keeps none. */
    cacheBytes: z.number().int().min(0).default(64 * 1024 * 1024),
    /** Folder for tiles on disk; defaults to the operator's basemaps.cacheDir (none when neither is set). */
    cacheDir: z.string().optional(),
  })
  .strict();

export default definePlugin({
  sdkVersion: 1,
  create(rawOptions, context): BasemapProvider {
    const parsed = optionsSchema.safeParse(rawOptions);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`option '${issue.path.join('.') || '(options)'}' ${issue.message}`);
    }
    const options = parsed.data;
    checkTemplate(options.url);
    const subdomains = typeof options.subdomains === 'string' ? [...options.subdomains] : options.subdomains;
    const densityInUrl = options.url.includes('{r}');
    const zoomsOut = Math.log2(options.tileSize / TILE_SIZE);
    if (options.url.includes('{s}') && subdomains.length === 0) throw new Error(`option 'subdomains' is needed: option 'url' has {s}.`);
    const tiles = createTileSource({
      provider: context.name,
      userAgent: context.userAgent,
      timeoutMs: options.timeoutMs,
      retries: options.retries,
      cacheBytes: options.cacheBytes,
      cacheDir: options.cacheDir ?? context.cacheDir,
      logger: context.logger,
      metrics: context.metrics,
    });

    return {
      name: context.name,
      async render({ view, culture, signal }) {
        const cultureCode = options.cultures[culture];
        // Each tile's wait ends with the map's signal (tile-source.ts).
        // A denser map asks for the server's @2x tiles where the template says how; other
        // tiles are drawn over the same CSS pixels, scaled up to the map's density.
        const highDensity = view.devicePixelRatio > 1 && densityInUrl;
        const placed = await Promise.all(
          tilesCovering(view, Math.min(options.maxZoom, view.zoom - zoomsOut)).map(async (placement): Promise<PlacedImage | undefined> => {
            const address = { z: placement.z, x: placement.x, y: placement.y, culture: cultureCode, highDensity };
            const key = `${encodeURIComponent(cultureCode)}/${address.z}/${address.x}/${address.y}${highDensity ? '@2x' : ''}`;
            const tile = await tiles.get(key, tileUrl(options.url, address, subdomains), signal);
            if (!tile) return undefined;
            const { left, top, size } = placement;
            return { x: left, y: top, width: size, height: size, ...tile };
          }),
        );
        return {
          below: { images: placed.filter((image): image is PlacedImage => image !== undefined) },
          attribution: options.attribution,
        };
      },
    };
  },
});
