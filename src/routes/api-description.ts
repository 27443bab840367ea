/**
 * GET /openapi.json (the OpenAPI 3.1 description) and /docs (an interactive reference that
 * works offline: Swagger UI's files kept in src/openapi/swagger-ui/, no CDN). No key needed.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { staticAssets } from '../http/static-assets.ts';
import { openApiDocument } from '../openapi/document.ts';
import type { Services } from '../app-services.ts';

const swaggerUi = (file: string) => new URL(`../openapi/swagger-ui/${file}`, import.meta.url);
const ownFile = (file: string) => new URL(`../openapi/docs/${file}`, import.meta.url);

/** The files /docs's page loads (a few MB, read at start-up). */
const ASSETS = {
  '/docs/swagger-ui.css': { file: swaggerUi('swagger-ui.css'), type: 'text/css; charset=utf-8' },
  '/docs/swagger-ui-bundle.js': { file: swaggerUi('swagger-ui-bundle.js'), type: 'text/javascript; charset=utf-8' },
  '/docs/start.js': { file: ownFile('start.js'), type: 'text/javascript; charset=utf-8' },
};

/** Scripts and styles from this origin only (Swagger UI sets some styles inline). */
const CONTENT_SECURITY_POLICY = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

export function apiDescriptionRoutes(services: Pick<Services, 'config' | 'themes' | 'source'>) {
  const { limits, ogc, metrics } = services.config;
  // Written when first asked for: some 80 ms of a cold start, for a page few open.
  let document: string | undefined;
  return new Hono<AppEnv>()
    .get('/openapi.json', (c) => {
      document ??= JSON.stringify(openApiDocument({ limits, ogc, metrics, remote: services.source !== undefined, themes: services.themes }));
      c.header('Content-Type', 'application/vnd.oai.openapi+json;version=3.1');
      return c.body(document);
    })
    .route('/', staticAssets({ '/docs': { file: ownFile('index.html'), type: 'text/html; charset=utf-8' } }, { 'Content-Security-Policy': CONTENT_SECURITY_POLICY }))
    .route('/', staticAssets(ASSETS, { 'Cache-Control': 'public, max-age=3600' }));
}
