/**
 * GET /REST/v1/shapefiles/map (docs/api.md, "The map operation"): the same steps as images, with
 * the basemap's providers in the map's ETag; a map a fallback provider drew is not cached, since
 * its ETag names the configured provider's picture.
 */
import { Hono } from 'hono';
import { basemapIdentity } from '../caching/basemap-identity.ts';
import { MAP_TYPES } from '../plugin-contract/basemap-plugin.ts';
import { cachedPicture } from '../caching/picture-caching.ts';
import { copyrightOf, dataAttribution } from '../envelope/copyright.ts';
import type { AppEnv } from '../http/context.ts';
import { notCacheable, sendCollection } from '../http/respond.ts';
import { requireShapefile } from '../http/shapefile-access.ts';
import { validQuery } from '../http/validate.ts';
import { answerLimitFor } from '../operations/answer-limit-advice.ts';
import { createMap } from '../operations/map.ts';
import { mapQuerySchema, type MapRequest } from '../params/map.ts';
import type { ThematicServices } from '../operations/thematic.ts';
import type { Services } from '../app-services.ts';

/** GET /REST/v1/shapefiles/map */
export function mapRoute(services: Services & ThematicServices) {
  const { config } = services;
  // The basemap's providers shape the picture as much as the request does.
  // Fixed until a restart: worked out once a map type, not once a request.
  const identities = new Map(MAP_TYPES.map((type) => [type, basemapIdentity(config.basemaps, type)]));
  const attributionOf = dataAttribution(config);
  // So is the data's attribution, which the envelope carries.
  const caching = cachedPicture(config, (request: MapRequest) => ({ basemap: identities.get(request.type), attribution: attributionOf(request.file) }));
  // In turn: the parameters (400), the key's access to the shapefile (404), the client's copy (304).
  return new Hono<AppEnv>().get(
    '/map',
    validQuery(mapQuerySchema(config.limits)),
    requireShapefile(services.catalog),
    caching,
    async (c) => {
      c.get('timing')?.lap('http');
      const request = c.req.valid('query');
      const files = c.get('shapefile');
      const { collection, attribution, byFallback } = await createMap(request, files, services, c.get('signal'), c.get('timing'), c.get('shapefileVersion'));
      // Its ETag names the configured provider's picture; this one is a stand-in.
      if (byFallback) notCacheable(c);
      // The basemap's credit last, and said once: the sample data's and the embedded basemap's are both Natural Earth.
      const copyright = copyrightOf([config.envelope.copyright, attributionOf(files.name), attribution]);
      const limit = answerLimitFor(config.limits.maxAnswerBytes, 'map', request.format);
      return sendCollection(c, collection, request.format, { ...config.envelope, copyright }, limit);
    },
  );
}
