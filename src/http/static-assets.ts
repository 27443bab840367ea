/**
 * Files of ours served as they are (the playground's, /docs's Swagger UI): read once when the
 * routes are made, so that no request reads the disk, and at fixed paths, so that no request
 * names a file.
 */
import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import type { AppEnv } from './context.ts';

export interface StaticAsset {
  /** The file, read once when the routes are made. */
  file: string | URL;
  type: string;
}

/**
 * Routes that answer each path (as the app sees it: lower-cased) with its file and `headers`.
 * The files are a few, small and ours, read when the routes are made, so that no request
 * reads the disk or blocks on it; their paths are fixed, so no request names a file.
 */
export function staticAssets(assets: Readonly<Record<string, StaticAsset>>, headers: Readonly<Record<string, string>> = {}): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  for (const [path, { file, type }] of Object.entries(assets)) {
    const body = new Uint8Array(readFileSync(file));
    routes.get(path, (c) => c.body(body, 200, { ...headers, 'Content-Type': type }));
  }
  return routes;
}
