/**
 * GET /REST/v1/basemap/{type}/{z}/{x}/{y}.png (and `@2x.png`): the configured basemap as
 * slippy-map tiles (docs/tiles.md, "Basemap tiles"), the raster source of a layer's MapLibre
 * style. The provider draws the tile's view on this thread, as it draws a map's; a worker
 * paints it. Cached as maps are, by the providers that draw it.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { basemapIdentity } from '../caching/basemap-identity.ts';
import { setCacheControl } from '../caching/cache-control.ts';
import { entityTag } from '../caching/entity-tag.ts';
import { ifNoneMatchMatches } from '../caching/if-none-match.ts';
import { serviceIdentity } from '../caching/service-identity.ts';
import { BadRequestError, echo } from '../errors.ts';
import type { AppEnv } from '../http/context.ts';
import { notCacheable } from '../http/respond.ts';
import { validQuery } from '../http/validate.ts';
import { placeView } from '../map/view.ts';
import { choiceParam, withDefault } from '../params/fields.ts';
import { foldQueryNames } from '../params/normalize.ts';
import { tileOf } from '../params/tiles.ts';
import { CULTURES, MAP_TYPES } from '../plugin-contract/basemap-plugin.ts';
import { tileBox } from '../projection/tile-address.ts';
import { TILE_SIZE } from '../projection/web-mercator.ts';
import type { Services } from '../app-services.ts';

const querySchema = z.preprocess(foldQueryNames(['culture']), z.looseObject({ culture: withDefault(choiceParam(CULTURES), 'English') }));
const TYPES = new Map(MAP_TYPES.map((type) => [type.toLowerCase(), type]));

export function basemapTilesRoute(services: Services) {
  const { config } = services;
  const service = serviceIdentity(config);
  const identities = new Map(MAP_TYPES.map((type) => [type, basemapIdentity(config.basemaps, type)]));
  return new Hono<AppEnv>().get('/:type/:z/:x/:y', validQuery(querySchema), async (c) => {
    const type = TYPES.get(c.req.param('type').toLowerCase());
    if (!type) throw new BadRequestError(`The basemap type '${echo(c.req.param('type'))}' must be one of ${MAP_TYPES.join(', ')}.`);
    const tile = tileOf(c.req.param('z'), c.req.param('x'), c.req.param('y'));
    if (tile.format !== 'png') throw new BadRequestError('A basemap tile is a PNG: {y}.png or {y}@2x.png.');
    const culture = c.req.valid('query').culture ?? 'English';
    const etag = entityTag({ service, basemap: identities.get(type), culture, tile }, false);
    setCacheControl(c, config.http.cacheControl);
    c.header('ETag', etag);
    if (ifNoneMatchMatches(c.req.header('If-None-Match'), etag)) return c.body(null, 304);
    const box = tileBox(tile);
    const { view } = placeView({ x: (box.xmin + box.xmax) / 2, y: (box.ymin + box.ymax) / 2 }, tile.z, TILE_SIZE, TILE_SIZE, tile.pixelRatio);
    const signal = c.get('signal');
    const basemap = await services.basemaps.render({ view, type, culture, signal });
    c.get('timing')?.lap('basemap');
    // Its ETag names the configured provider's picture; a fallback's is a stand-in.
    if (basemap.byFallback) notCacheable(c);
    const { stages, bytes } = await services.jobs.run('basemap-tile', { basemap, pixelRatio: tile.pixelRatio }, signal);
    c.get('timing')?.job(stages);
    c.header('Content-Type', 'image/png');
    return c.body(bytes as Uint8Array<ArrayBuffer>);
  });
}
