import { Hono } from 'hono';
import type { Services } from '../app.ts';
import type { AppEnv } from '../http/context.ts';
import { sendCollection } from '../http/respond.ts';
import { validQuery } from '../http/validate.ts';
import { createMap } from '../operations/map.ts';
import { withTimeLimit } from '../operations/time-limit.ts';
import { mapQuerySchema } from '../params/map.ts';

/** GET /REST/v1/shapefiles/map */
export function mapRoute(services: Services) {
  const { config } = services;
  return new Hono<AppEnv>().get('/map', validQuery(mapQuerySchema(config.limits)), async (c) => {
    const request = c.req.valid('query');
    // Tells the basemap and the feature scan to stop once the answer would come too late anyway.
    const deadline = AbortSignal.timeout(config.limits.requestTimeoutMs);
    const { collection, attribution } = await withTimeLimit(
      createMap(request, c.get('grant'), services, deadline),
      config.limits.requestTimeoutMs,
    );
    const copyright = attribution ? `${config.envelope.copyright} ${attribution}` : config.envelope.copyright;
    return sendCollection(c, collection, request.format, { ...config.envelope, copyright });
  });
}
