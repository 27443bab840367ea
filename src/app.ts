/**
 * The request's path through the service, read top to bottom in buildApp: the steps every
 * request passes (measured, timed, traced, logged, CORS, the format its errors take, the size
 * of its head), the routes that need no key, the key and its limits, then admission and the
 * request's signal for the routes that read shapefiles. Each of those names its own steps
 * after these (its parameters, the key's access to the shapefile, caching) where it is declared.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { getPath } from 'hono/utils/url';
import type { Services } from './app-services.ts';
import { NotFoundError } from './errors.ts';
import { healthRoutes } from './health/health-routes.ts';
import { admission } from './http/admission.ts';
import type { AppEnv } from './http/context.ts';
import { detectFormat } from './http/error-format.ts';
import { envelopeFailure, errorHandler, type ErrorSettings } from './http/errors.ts';
import { onlyGet } from './http/only-get.ts';
import { requestLog } from './http/request-log.ts';
import { requestSignal } from './http/request-signal.ts';
import { limitRequestSize } from './http/request-size.ts';
import { traceId } from './http/request-trace-id.ts';
import { requireKey } from './http/require-key.ts';
import { keyLimits, keyRateLimit } from './http/key-limits.ts';
import { serverTiming } from './http/server-timing.ts';
import { measureRequests } from './metrics/measure-requests.ts';
import { metricsRoute } from './metrics/metrics-route.ts';
import { isOgcPath, ogcFailure } from './ogc/errors.ts';
import { ogcRoutes, unknownOgcPath } from './ogc/routes.ts';
import { playgroundRoute } from './playground/serve-playground.ts';
import { apiDescriptionRoutes } from './routes/api-description.ts';
import { imagesRoute } from './routes/images.ts';
import { mapRoute } from './routes/map.ts';
import { legendRoute } from './routes/legend.ts';
import { tilesRoute } from './routes/tiles.ts';
import { basemapTilesRoute } from './routes/basemap-tiles.ts';
import { usageRoute } from './routes/usage.ts';
import { classificationCache } from './operations/thematic.ts';

export type { Services } from './app-services.ts';

/**
 * `outer`, then `inner` within it, as one middleware; both must call next() or throw.
 * hono/combine's every() does this too, but builds a new chain of closures for every request:
 * under a load of refusals that was a few per cent of the event loop's time.
 */
function inTurn(outer: MiddlewareHandler<AppEnv>, inner: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return (c, next) => outer(c, async () => void (await inner(c, next)));
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

  // Every request, whatever its path.
  if (services.metrics) app.use(measureRequests(services.metrics));
  app.use(serverTiming(config.serverTiming));
  app.use(traceId(config.envelope.instance));
  app.use(requestLog(logger));
  app.use(cors({ origin: '*', allowMethods: ['GET', 'HEAD'], exposeHeaders: ['X-Trace-Id'] }));
  app.use(detectFormat());
  app.use(limitRequestSize());
  // The playground needs no key: mounted before the key check, it answers without reaching it.
  app.route('/', playgroundRoute());
  app.route('/', apiDescriptionRoutes(services));
  // Nor do probes and scrapes (docs/decisions.md), which no admission refuses either.
  app.route('/', healthRoutes(services));
  if (services.metrics) app.route('/', metricsRoute(services.metrics));
  app.use(requireKey(services.keys));
  // A key's usage is its to see whatever its quota says (its rate limit alone applies); every
  // route after it counts against the key's limits: rate limit, requests in progress, quota.
  app.route('/', usageRoute(services, keyRateLimit(services.limits)));
  app.use(keyLimits(services.limits));
  // Admitted or refused before anything is read; then one signal stops every stage. One
  // admission for every route that reads shapefiles, so that its limits count them all.
  const admitted = inTurn(
    admission({
      maxInFlight: services.jobs.workers + config.render.maxQueue,
      maxWaitMs: config.render.maxWaitMs,
      expectedWaitMs: () => services.jobs.stats.expectedWaitMs,
      maxPendingAnswerBytes: config.limits.maxPendingAnswerBytes,
    }),
    requestSignal(config.limits.requestTimeoutMs),
  );
  // Before onlyGet: OGC API – Features refuses other methods itself, in its own error format.
  app.route('/ogc', ogcRoutes(services, admitted));
  app.use(onlyGet(errors));

  const operations = new Hono<AppEnv>();
  operations.use(admitted);
  // One store of classifications for every route that styles by class: a choropleth's images, maps and legend share them.
  const styled = { ...services, classifications: classificationCache() };
  operations.route('/', imagesRoute(styled));
  operations.route('/', mapRoute(styled));
  operations.route('/', legendRoute(styled));
  operations.route('/', tilesRoute(styled));
  app.route('/rest/v1/shapefiles', operations);
  const basemapTiles = new Hono<AppEnv>();
  basemapTiles.use(admitted);
  basemapTiles.route('/', basemapTilesRoute(services));
  app.route('/rest/v1/basemap', basemapTiles);

  // The path is not echoed: a key pasted into it by mistake must not come back.
  const routes = [
    '/REST/v1/shapefiles/images',
    '/REST/v1/shapefiles/map',
    '/REST/v1/shapefiles/legend',
    '/REST/v1/shapefiles/tiles',
    '/REST/v1/basemap',
    '/REST/v1/usage',
    '/ogc (OGC API – Features and Tiles)',
    '/openapi.json',
    '/docs',
    '/health',
    '/ready',
    ...(services.metrics ? ['/metrics'] : []),
    'the playground at /',
  ];
  const unknownPath = `There is no resource at this path; the routes are ${routes.join(', ')}.`;
  app.notFound((c) => {
    throw isOgcPath(c.req.path) ? unknownOgcPath() : new NotFoundError(unknownPath);
  });
  const envelopeErrors = errorHandler(envelopeFailure(errors), logger);
  const ogcErrors = errorHandler(ogcFailure, logger);
  app.onError((error, c) => (isOgcPath(c.req.path) ? ogcErrors : envelopeErrors)(error, c));
  return app;
}
