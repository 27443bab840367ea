/**
 * The playground's files (its page, style and scripts, and the MapLibre GL JS kept in
 * maplibre/ for its panning map) served as they are written, behind a self-only content
 * security policy.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { staticAssets } from '../http/static-assets.ts';

const here = (file: string) => new URL(file, import.meta.url);

/** Paths as the app sees them (lower-cased); each answers one file of this folder with its type pinned. */
const ASSETS = {
  '/': { file: here('index.html'), type: 'text/html; charset=utf-8' },
  '/playground/playground.css': { file: here('playground.css'), type: 'text/css; charset=utf-8' },
  '/playground/playground.js': { file: here('playground.js'), type: 'text/javascript; charset=utf-8' },
  '/playground/envelope.js': { file: here('envelope.js'), type: 'text/javascript; charset=utf-8' },
  '/playground/first-look.js': { file: here('first-look.js'), type: 'text/javascript; charset=utf-8' },
  '/playground/thematic.js': { file: here('thematic.js'), type: 'text/javascript; charset=utf-8' },
  // /docs's page takes its key the same way.
  '/playground/page-key.js': { file: here('page-key.js'), type: 'text/javascript; charset=utf-8' },
  '/playground/pan-view.js': { file: here('pan-view.js'), type: 'text/javascript; charset=utf-8' },
  '/playground/pan-features.js': { file: here('pan-features.js'), type: 'text/javascript; charset=utf-8' },
};

/**
 * MapLibre GL JS (scripts/vendor-maplibre.ts copies a version here): the library, the worker
 * it starts from the module beside it, its styles. Some 1.7 MB, loaded only when the map is
 * opened, and the same until the next version is copied: cached by the browser for an hour, as
 * /docs's Swagger UI is.
 */
const MAPLIBRE = {
  '/playground/maplibre/maplibre-gl.mjs': { file: here('maplibre/maplibre-gl.mjs'), type: 'text/javascript; charset=utf-8' },
  '/playground/maplibre/maplibre-gl-worker.mjs': { file: here('maplibre/maplibre-gl-worker.mjs'), type: 'text/javascript; charset=utf-8' },
  '/playground/maplibre/maplibre-gl.css': { file: here('maplibre/maplibre-gl.css'), type: 'text/css; charset=utf-8' },
};

/**
 * Only this origin's script, style and requests; images are the PNG bytes of an envelope,
 * shown through blob: URLs the page makes itself. No inline script or style, no frames.
 * MapLibre's worker is a module of this origin (script-src 'self' lets it start, so no
 * worker-src); its map's controls draw their icons as data: SVG in its stylesheet, which
 * img-src lets in: an image runs no script (docs/tiles.md, "The playground's map").
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  'img-src blob: data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // Revalidated on every load, so a new version of the page never meets an old script.
  'Cache-Control': 'no-cache',
};

/**
 * The playground at `/`: a static page, its style and its script, which call the API
 * with the key the user types. It needs no key itself, so it must be mounted before
 * the key check.
 */
export function playgroundRoute(): Hono<AppEnv> {
  // The worker's policy is the one its own script is answered with: it fetches the tiles, so it keeps connect-src 'self'.
  return new Hono<AppEnv>().route('/', staticAssets(ASSETS, HEADERS)).route('/', staticAssets(MAPLIBRE, { ...HEADERS, 'Cache-Control': 'public, max-age=3600' }));
}
