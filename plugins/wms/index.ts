/**
 * wms: the basemap from a Web Map Service (WMS 1.3.0 or 1.1.1), one GetMap per map in
 * EPSG:3857 covering exactly the view, placed over the whole image.
 *
 * Options:
 * - `url` (required): the server's http(s) address. It may carry query parameters of its
 *   own (MapServer's `map=`, an API key); its copies of the parameters this plugin sets
 *   (SERVICE, VERSION, REQUEST, LAYERS, STYLES, CRS/SRS, BBOX, WIDTH, HEIGHT, FORMAT,
 *   TRANSPARENT, EXCEPTIONS) are replaced.
 * - `layers` (required): the LAYERS parameter, comma-separated layer names.
 * - `styles` (default `''`, each layer's default style): the STYLES parameter.
 * - `format`: `image/png` (default) or `image/jpeg`.
 * - `version`: `1.3.0` (default, sends CRS=EPSG:3857) or `1.1.1` (SRS=EPSG:3857).
 * - `transparent` (default false): TRANSPARENT=TRUE, a PNG without background.
 * - `attribution` (default: the server's host name): shown on the map and in the Copyright.
 * - `timeoutMs` (default 10000): how long a GetMap may take, server-side drawing included.
 * - `cacheBytes` (default 16 MiB): GetMap answers kept in memory by URL; 0 keeps none.
 * - `params` (default `{}`): further parameters of string values, appended to every GetMap
 *   (vendor parameters such as `{ "DPI": "96" }`, or TIME); not the ones the plugin sets.
 *
 * The server is asked for view width × devicePixelRatio by height × devicePixelRatio
 * pixels, so a scale=2 map gets a sharp basemap. A server that cannot be reached, is too
 * slow, answers an HTTP error, an exception report (its message is passed on) or anything
 * but a PNG or JPEG image makes the provider unavailable: the map goes to the configured
 * fallback or answers 503.
 */
import { z } from 'zod';
import { definePlugin, type BasemapProvider } from '../../src/sdk/plugin.ts';
import { createGetMapSource } from './get-map-source.ts';
import { GET_MAP_PARAMETERS, getMapSize, getMapUrlBuilder } from './get-map-url.ts';

const optionsSchema = z
  .object({
    url: z.url({ protocol: /^https?$/, error: (issue) => (issue.input === undefined ? 'is required' : 'must be an http(s) URL') }),
    layers: z.string().min(1),
    styles: z.string().default(''),
    format: z.enum(['image/png', 'image/jpeg']).default('image/png'),
    version: z.enum(['1.3.0', '1.1.1']).default('1.3.0'),
    transparent: z.boolean().default(false),
    attribution: z.string().optional(),
    timeoutMs: z.number().int().min(1).default(10_000),
    cacheBytes: z.number().int().min(0).default(16 * 1024 * 1024),
    params: z.record(z.string(), z.string()).default({}),
  })
  .strict();

type Options = z.infer<typeof optionsSchema>;

/** The options, checked; an Error naming the option that is wrong otherwise. */
function parseOptions(rawOptions: Record<string, unknown>): Options {
  const parsed = optionsSchema.safeParse(rawOptions);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue.code === 'unrecognized_keys') {
      throw new Error(`unknown option '${issue.keys[0]}' (known: ${Object.keys(optionsSchema.shape).join(', ')}).`);
    }
    throw new Error(`option '${issue.path.join('.') || '(options)'}' ${issue.message}`);
  }
  const reserved = Object.keys(parsed.data.params).find((key) => GET_MAP_PARAMETERS.has(key.toUpperCase()));
  if (reserved !== undefined) throw new Error(`option 'params.${reserved}' is not allowed: the plugin sets ${reserved.toUpperCase()} itself.`);
  if (parsed.data.transparent && parsed.data.format === 'image/jpeg') throw new Error(`option 'transparent' needs format image/png: JPEG has no transparency.`);
  return parsed.data;
}

export default definePlugin({
  sdkVersion: 1,
  create(rawOptions, context): BasemapProvider {
    const options = parseOptions(rawOptions);
    const urlOf = getMapUrlBuilder(options);
    const images = createGetMapSource({
      provider: context.name,
      userAgent: context.userAgent,
      format: options.format,
      timeoutMs: options.timeoutMs,
      cacheBytes: options.cacheBytes,
      metrics: context.metrics,
    });
    const attribution = options.attribution ?? new URL(options.url).hostname;

    return {
      name: context.name,
      async render({ view, signal }) {
        // An image is never bigger than its raw pixels (PNG adds a few bytes to a block), plus exception text.
        const size = getMapSize(view);
        const maxBytes = size.width * size.height * 4 + 1024 * 1024;
        const image = await images.get(urlOf(view), { maxBytes, size }, signal);
        return { below: { images: [{ x: 0, y: 0, width: view.width, height: view.height, ...image }] }, attribution };
      },
    };
  },
});
