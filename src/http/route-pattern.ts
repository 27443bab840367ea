/**
 * The name a request is counted and logged under: its route's pattern, read from Hono's
 * matched routes. Here beside the other request steps, for the log (request-log.ts) and the
 * metrics alike.
 */
import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import { METHOD_NAME_ALL } from 'hono/router';

/** The route label of a request no route serves (an unknown path, or a method no route takes). */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * The pattern of the route a request matched ('/rest/v1/shapefiles/images',
 * '/ogc/collections/:collectionId'), never its path: label values stay as few as the routes,
 * whatever paths clients send. Middleware is registered for every method (`use`), a route
 * for its own, and the route comes after the middleware in front of it.
 */
export function routePattern(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) {
    if (routes[i].method !== METHOD_NAME_ALL) return routes[i].path;
  }
  return UNMATCHED_ROUTE;
}
