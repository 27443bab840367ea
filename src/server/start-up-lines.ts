/**
 * What the server prints once it listens: where, on what, and the URLs a newcomer opens
 * first (the playground, the API documentation, a picture of their own data), so that the
 * first minute needs no README. While the start-up key is in force the URLs carry it, as
 * Jupyter's carry its token (docs/configuration.md, "The start-up key"); else they hold a
 * placeholder for the user's own key. Pure: the entry point prints the lines.
 */
import type { StartUpExamples } from './start-up-examples.ts';

export interface StartUpFacts {
  /** Where it listens, e.g. http://127.0.0.1:3000. */
  origin: string;
  /** The runtime's name and version. */
  runtime: string;
  /** The data folder, as configured. */
  dataFolder: string;
  /** The names of the shapefiles in it, sorted. */
  shapefiles: readonly string[];
  /** The start-up key, while it is in force (no keys configured). */
  startUpKey?: string;
}

/** The first lines, printed as soon as the server listens. */
export function startUpLines({ origin, runtime, dataFolder, shapefiles, startUpKey }: StartUpFacts): string[] {
  const count = shapefiles.length === 1 ? '1 shapefile' : `${shapefiles.length} shapefiles`;
  const page = (path: string) => (startUpKey === undefined ? `${origin}${path}` : `${origin}${path}?key=${startUpKey}`);
  return [`shapeshot listening on ${origin} (${runtime}; data: ${dataFolder}, ${count})`, `Playground: ${page('/')}`, `API docs: ${page('/docs')}`];
}

/** The URLs to try on the examples (start-up-examples.ts), or what to do in an empty folder. */
export function tryLines({ origin, shapefiles, startUpKey }: StartUpFacts, { image, map }: StartUpExamples): string[] {
  const key = startUpKey ?? '<your key>';
  const images = (file: string, fid: number) => `${origin}/REST/v1/shapefiles/images?file=${file}&fid=${fid}&format=png&key=${key}`;
  if (shapefiles.length === 0) return [`Once NAME.shp is there: ${images('NAME', 0)}`];
  return [
    ...(image ? [`Try: ${images(encodeURIComponent(image.file), image.fid)}`] : []),
    ...(map ? [`Try: ${origin}/REST/v1/shapefiles/map?file=${encodeURIComponent(map)}&format=png&key=${key}`] : []),
  ];
}
