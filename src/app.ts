import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { getPath } from 'hono/utils/url';
import { echo, NotFoundError } from './errors.ts';
import { admission } from './http/admission.ts';
import type { AppEnv } from './http/context.ts';
import { errorHandler, type ErrorSettings } from './http/errors.ts';
import { detectFormat, limitRequestSize, onlyGet, requestLog, requireKey, traceId } from './http/middleware.ts';
import { requestSignal } from './http/request-signal.ts';
import { serverTiming } from './http/server-timing.ts';
import { imagesRoute } from './routes/images.ts';
import { mapRoute } from './routes/map.ts';
import type { Services } from './services.ts';

export type { Services } from './services.ts';

/** Builds the runtime-agnostic Hono app: web-standard Request in, Response out. */
export function buildApp(services: Services): Hono<AppEnv> {
  const { config, logger } = services;
  const errors: ErrorSettings = {
    copyright: config.envelope.copyright,
    schemaNamespace: config.envelope.schemaNamespace,
  };
  // Paths are case-insensitive like the rest of the interface (/REST/v1 = /rest/v1).
  const app = new Hono<AppEnv>({ getPath: (request) => getPath(request).toLowerCase() });

  app.use(serverTiming(config.serverTiming));
  app.use(traceId(config.envelope.instance));
  app.use(requestLog(logger));
  app.use(cors({ origin: '*', allowMethods: ['GET', 'HEAD'], exposeHeaders: ['X-Trace-Id'] }));
  app.use(detectFormat());
  app.use(limitRequestSize());
  app.use(requireKey(services.keys));
  app.use(onlyGet(errors));

  const operations = new Hono<AppEnv>();
  // Admitted or refused before anything is read; then one signal stops every stage.
  operations.use(
    admission({
      maxInFlight: services.drawing.workers + config.render.maxQueue,
      maxWaitMs: config.render.maxWaitMs,
      expectedWaitMs: () => services.drawing.stats.expectedWaitMs,
    }),
  );
  operations.use(requestSignal(config.limits.requestTimeoutMs));
  operations.route('/', imagesRoute(services));
  operations.route('/', mapRoute(services));
  app.route('/rest/v1/shapefiles', operations);

  app.notFound((c) => {
    throw new NotFoundError(`There is no resource at '${echo(c.req.path)}'.`);
  });
  app.onError(errorHandler(errors, logger));
  return app;
}
