/**
 * GET /REST/v1/shapefiles/images (docs/api.md, "The images operation"): its steps in the order
 * a client meets their answers (the parameters, 400; the key's access to the shapefile, 404; the
 * client's copy, 304), then the work (operations/images.ts) and the envelope's Copyright.
 */
import { Hono } from 'hono';
import { cachedPicture } from '../caching/picture-caching.ts';
import { copyrightOf, dataAttribution } from '../envelope/copyright.ts';
import type { AppEnv } from '../http/context.ts';
import { sendCollection } from '../http/respond.ts';
import { requireShapefile } from '../http/shapefile-access.ts';
import { validQuery } from '../http/validate.ts';
import { answerLimitFor } from '../operations/answer-limit-advice.ts';
import { createImages } from '../operations/images.ts';
import { imagesQuerySchema, type ImagesRequest } from '../params/images.ts';
import type { ThematicServices } from '../operations/thematic.ts';
import type { Services } from '../app-services.ts';

/** GET /REST/v1/shapefiles/images */
export function imagesRoute(services: Services & ThematicServices) {
  const { config } = services;
  const attributionOf = dataAttribution(config);
  // The data's attribution is in the envelope: a change of it is a new answer.
  const caching = cachedPicture(config, (request: ImagesRequest) => attributionOf(request.file));
  // In turn: the parameters (400), the key's access to the shapefile (404), the client's copy (304).
  return new Hono<AppEnv>().get(
    '/images',
    validQuery(imagesQuerySchema(config.limits, services.themes)),
    requireShapefile(services.catalog),
    caching,
    async (c) => {
      c.get('timing')?.lap('http');
      const request = c.req.valid('query');
      const files = c.get('shapefile');
      const collection = await createImages(request, files, services, c.get('signal'), c.get('timing'), c.get('shapefileVersion'));
      const copyright = copyrightOf([config.envelope.copyright, attributionOf(files.name)]);
      return sendCollection(c, collection, request.format, { ...config.envelope, copyright }, answerLimitFor(config.limits.maxAnswerBytes, 'images', request.format));
    },
  );
}
