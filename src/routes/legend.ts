/**
 * GET /REST/v1/shapefiles/legend: a styled request's legend alone (docs/decisions.md, "Thematic
 * styling"), as WMS GetLegendGraphic answers it: drawn (PNG, SVG), or in the envelope.
 */
import { Hono } from 'hono';
import { cachedPicture } from '../caching/picture-caching.ts';
import { copyrightOf, dataAttribution } from '../envelope/copyright.ts';
import type { AppEnv } from '../http/context.ts';
import { reserveAnswer } from '../http/admission.ts';
import { sendEnvelope } from '../http/respond.ts';
import { requireShapefile } from '../http/shapefile-access.ts';
import { validQuery } from '../http/validate.ts';
import { IMAGE_CONTENT_TYPES } from '../params/fields.ts';
import { legendQuerySchema, type LegendRequest } from '../params/legend.ts';
import { answerLimitFor } from '../operations/answer-limit-advice.ts';
import { legendOf, type ThematicServices } from '../operations/thematic.ts';
import type { Services } from '../app-services.ts';

/** GET /REST/v1/shapefiles/legend */
export function legendRoute(services: Services & ThematicServices) {
  const { config } = services;
  const attributionOf = dataAttribution(config);
  const caching = cachedPicture(config, (request: LegendRequest) => attributionOf(request.file));
  // In turn: the parameters (400), the key's access to the shapefile (404), the client's copy (304).
  return new Hono<AppEnv>().get(
    '/legend',
    validQuery(legendQuerySchema(services.themes)),
    requireShapefile(services.catalog),
    caching,
    async (c) => {
      c.get('timing')?.lap('http');
      const request = c.req.valid('query');
      const files = c.get('shapefile');
      const signal = c.get('signal');
      const legend = await legendOf(request.colouring, request.culture, {
        files,
        where: request.where,
        version: c.get('shapefileVersion'),
        noCache: request.noCache,
        services,
        signal,
        timing: c.get('timing'),
      });
      const { format } = request;
      if (format === 'png' || format === 'svg') {
        const { maxSize, maxPixelsPerRequest } = config.limits;
        // Within the size and pixel limits whatever the classes: a longer legend ends with "… N more".
        const maxSide = Math.min(maxSize, Math.floor(Math.sqrt(maxPixelsPerRequest) / request.scale));
        const drawn = await services.jobs.run('legend', { legend, format, pixelRatio: request.scale, maxSide }, signal);
        c.get('timing')?.job(drawn.stages);
        reserveAnswer(c, drawn.picture.byteLength);
        c.set('pictures', 1);
        c.header('Content-Type', IMAGE_CONTENT_TYPES[format]);
        return c.body(drawn.picture as Uint8Array<ArrayBuffer>);
      }
      const copyright = copyrightOf([config.envelope.copyright, attributionOf(files.name)]);
      const envelope = { copyright, statusCode: 200, statusDescription: 'OK', errorDetails: '', traceId: c.get('traceId'), resource: { kind: 'legend' as const, shapefile: files.name, legend } };
      return sendEnvelope(c, envelope, format, config.envelope, answerLimitFor(config.limits.maxAnswerBytes, 'legend', format));
    },
  );
}
