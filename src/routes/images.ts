import { Hono } from 'hono';
import { cachedPicture } from '../caching/picture-caching.ts';
import type { AppEnv } from '../http/context.ts';
import { sendCollection } from '../http/respond.ts';
import { validQuery } from '../http/validate.ts';
import { answerLimitFor } from '../operations/answer-limit-advice.ts';
import { createImages } from '../operations/images.ts';
import { imagesQuerySchema } from '../params/images.ts';
import type { Services } from '../services.ts';

/** GET /REST/v1/shapefiles/images */
export function imagesRoute(services: Services) {
  const { config } = services;
  return new Hono<AppEnv>().get('/images', validQuery(imagesQuerySchema(config.limits, services.themes)), cachedPicture(services), async (c) => {
    c.get('timing')?.lap('http');
    const request = c.req.valid('query');
    const collection = await createImages(request, c.get('shapefile'), services, c.get('signal'), c.get('timing'));
    return sendCollection(c, collection, request.format, config.envelope, answerLimitFor(config.limits.maxAnswerBytes, 'images', request.format));
  });
}
