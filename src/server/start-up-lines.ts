/**
 * What the server prints once it listens: where, on what, and the URLs a newcomer opens
 * first (the playground, the API documentation, an image of their own first shapefile), so
 * that the first minute needs no README. Pure: the entry point prints the lines.
 */

export interface StartUpFacts {
  /** Where it listens, e.g. http://127.0.0.1:3000. */
  origin: string;
  /** The runtime's name and version. */
  runtime: string;
  /** The data folder, as configured. */
  dataFolder: string;
  /** The names of the shapefiles in it, sorted: the first one is the example's. */
  shapefiles: readonly string[];
  /** The key the example URLs carry: the demo key where it works, else a placeholder. */
  key: string;
}

export function startUpLines({ origin, runtime, dataFolder, shapefiles, key }: StartUpFacts): string[] {
  const count = shapefiles.length === 1 ? '1 shapefile' : `${shapefiles.length} shapefiles`;
  const lines = [`shapeshot listening on ${origin} (${runtime}; data: ${dataFolder}, ${count})`, `Playground: ${origin}/`, `API docs: ${origin}/docs`];
  const [first] = shapefiles;
  if (first === undefined) return [...lines, `Once NAME.shp is there: ${imageUrl(origin, 'NAME', key)}`];
  const file = encodeURIComponent(first);
  return [...lines, `Try: ${imageUrl(origin, file, key)}`, `Try: ${origin}/REST/v1/shapefiles/map?file=${file}&format=png&key=${key}`];
}

function imageUrl(origin: string, file: string, key: string): string {
  return `${origin}/REST/v1/shapefiles/images?file=${file}&fid=0&format=png&key=${key}`;
}
