import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { getPath } from 'hono/utils/url';
import type { Logger } from 'pino';
import type { KeyRing } from './auth/keys.ts';
import type { BasemapRegistry } from './basemap/registry.ts';
import type { Config } from './config/schema.ts';
import { NotFoundError } from './errors.ts';
import type { AppEnv } from './http/context.ts';
import { errorHandler, type ErrorSettings } from './http/errors.ts';
import { detectFormat, onlyGet, requestLog, requireKey, traceId } from './http/middleware.ts';
import type { RenderPool } from './raster/render-pool.ts';
import { imagesRoute } from './routes/images.ts';
import { mapRoute } from './routes/map.ts';
import type { ShapefileCatalog } from './shapefile/types.ts';
import type { Theme } from './themes/theme.ts';

/** Everything the app needs, made by the runtime's entry point; the app itself does no I/O setup. */
export interface Services {
  config: Config;
  catalog: ShapefileCatalog;
  renderer: RenderPool;
  basemaps: BasemapRegistry;
  themes: ReadonlyMap<string, Theme>;
  keys: KeyRing;
  logger: Logger;
}

/** Builds the runtime-agnostic Hono app: web-standard Request in, Response out. */
export function buildApp(services: Services): Hono<AppEnv> {
  const { config, logger } = services;
  const errors: ErrorSettings = {
    copyright: config.envelope.copyright,
    schemaNamespace: config.envelope.schemaNamespace,
  };
  // Paths are case-insensitive like the rest of the interface (/REST/v1 = /rest/v1).
  const app = new Hono<AppEnv>({ getPath: (request) => getPath(request).toLowerCase() });

  app.use(traceId(config.envelope.instance));
  app.use(requestLog(logger));
  app.use(cors({ origin: '*', allowMethods: ['GET', 'HEAD'], exposeHeaders: ['X-Trace-Id'] }));
  app.use(detectFormat());
  app.use(requireKey(services.keys));
  app.use(onlyGet(errors));

  app.route('/rest/v1/shapefiles', imagesRoute(services));
  app.route('/rest/v1/shapefiles', mapRoute(services));

  app.notFound((c) => {
    throw new NotFoundError(`There is no resource at '${c.req.path}'.`);
  });
  app.onError(errorHandler(errors, logger));
  return app;
}
