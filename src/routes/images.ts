import { Hono } from 'hono';
import type { Services } from '../app.ts';
import type { AppEnv } from '../http/context.ts';
import { sendCollection } from '../http/respond.ts';
import { validQuery } from '../http/validate.ts';
import { createImages } from '../operations/images.ts';
import { withTimeLimit } from '../operations/time-limit.ts';
import { imagesQuerySchema } from '../params/images.ts';

/** GET /REST/v1/shapefiles/images */
export function imagesRoute(services: Services) {
  const { config } = services;
  return new Hono<AppEnv>().get('/images', validQuery(imagesQuerySchema(config.limits, services.themes)), async (c) => {
    const request = c.req.valid('query');
    const collection = await withTimeLimit(
      createImages(request, c.get('grant'), services),
      config.limits.requestTimeoutMs,
    );
    return sendCollection(c, collection, request.format, config.envelope);
  });
}
