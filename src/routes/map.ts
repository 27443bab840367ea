import { Hono } from 'hono';
import { basemapIdentity } from '../caching/basemap-identity.ts';
import { MAP_TYPES } from '../sdk/contract.ts';
import { cachedPicture } from '../caching/picture-caching.ts';
import type { AppEnv } from '../http/context.ts';
import { notCacheable, sendCollection } from '../http/respond.ts';
import { validQuery } from '../http/validate.ts';
import { answerLimitFor } from '../operations/answer-limit-advice.ts';
import { createMap } from '../operations/map.ts';
import { mapQuerySchema, type MapRequest } from '../params/map.ts';
import type { Services } from '../services.ts';

/** GET /REST/v1/shapefiles/map */
export function mapRoute(services: Services) {
  const { config } = services;
  // The basemap's providers shape the picture as much as the request does.
  // Fixed until a restart: worked out once a map type, not once a request.
  const identities = new Map(MAP_TYPES.map((type) => [type, basemapIdentity(config.basemaps, type)]));
  const caching = cachedPicture(services, (request: MapRequest) => identities.get(request.type));
  return new Hono<AppEnv>().get('/map', validQuery(mapQuerySchema(config.limits)), caching, async (c) => {
    c.get('timing')?.lap('http');
    const request = c.req.valid('query');
    const { collection, attribution, byFallback } = await createMap(request, c.get('shapefile'), services, c.get('signal'), c.get('timing'));
    // Its ETag names the configured provider's picture; this one is a stand-in.
    if (byFallback) notCacheable(c);
    const copyright = attribution ? `${config.envelope.copyright} ${attribution}` : config.envelope.copyright;
    const limit = answerLimitFor(config.limits.maxAnswerBytes, 'map', request.format);
    return sendCollection(c, collection, request.format, { ...config.envelope, copyright }, limit);
  });
}
