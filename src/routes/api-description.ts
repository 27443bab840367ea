/**
 * GET /openapi.json (the OpenAPI 3.1 description) and /docs (an interactive reference that
 * works offline: Swagger UI from our own node_modules, no CDN). No key needed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { openApiDocument } from '../openapi/document.ts';
import type { Services } from '../services.ts';

const swaggerUi = (file: string) => createRequire(import.meta.url).resolve(`swagger-ui-dist/${file}`);
const ownFile = (file: string) => new URL(`../openapi/docs/${file}`, import.meta.url);

/** The files /docs serves: read on first use, then kept (a few MB). */
const ASSETS: Record<string, { path: () => string | URL; type: string }> = {
  'swagger-ui.css': { path: () => swaggerUi('swagger-ui.css'), type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { path: () => swaggerUi('swagger-ui-bundle.js'), type: 'text/javascript; charset=utf-8' },
  'start.js': { path: () => ownFile('start.js'), type: 'text/javascript; charset=utf-8' },
};

/** Scripts and styles from this origin only (Swagger UI sets some styles inline). */
const CONTENT_SECURITY_POLICY = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

export function apiDescriptionRoutes(services: Pick<Services, 'config' | 'themes'>) {
  const { limits, ogc, metrics } = services.config;
  const document = JSON.stringify(openApiDocument({ limits, ogc, metrics, themes: services.themes }));
  const loaded = new Map<string, Uint8Array<ArrayBuffer>>();
  const load = (name: string, path: string | URL) => {
    let bytes = loaded.get(name);
    if (!bytes) loaded.set(name, (bytes = new Uint8Array(readFileSync(path))));
    return bytes;
  };
  return new Hono<AppEnv>()
    .get('/openapi.json', (c) => {
      c.header('Content-Type', 'application/vnd.oai.openapi+json;version=3.1');
      return c.body(document);
    })
    .get('/docs', (c) => {
      c.header('Content-Type', 'text/html; charset=utf-8');
      c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      return c.body(load('index.html', ownFile('index.html')));
    })
    .get('/docs/:asset', (c) => {
      const name = c.req.param('asset');
      // Own names only: /docs/constructor must be a 404, not Object's.
      if (!Object.hasOwn(ASSETS, name)) return c.notFound();
      const asset = ASSETS[name];
      c.header('Content-Type', asset.type);
      c.header('Cache-Control', 'public, max-age=3600');
      return c.body(load(c.req.param('asset'), asset.path()));
    });
}
