/**
 * What ships inside the package (the sample data, the built-in themes, package.json's version),
 * found from this module rather than from the working directory, so that a server run from a
 * clone, from dist/ or from node_modules/shapeshot finds the same files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Folders that ship with the package, found from this module (src/config/, or
 * dist/src/config/ in the published build, which has them copied beside it) rather than
 * from the working directory: a server started from node_modules/shapeshot finds them too.
 */
export const SAMPLE_DATA_DIR = fileURLToPath(new URL('../../data/', import.meta.url));
export const BUNDLED_THEMES_DIR = fileURLToPath(new URL('../../themes/', import.meta.url));

/**
 * The version in shapeshot's package.json: the nearest one above this module, as Node
 * decides which package a module belongs to (dist/ has none of its own, so the sources and
 * the published build find the same one).
 */
export function packageVersion(): string {
  return (version ??= readPackageVersion());
}

let version: string | undefined;

function readPackageVersion(): string {
  for (let folder = new URL('./', import.meta.url); ; folder = new URL('../', folder)) {
    const manifest = new URL('package.json', folder);
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
    if (new URL('../', folder).href === folder.href) throw new Error(`No package.json above ${import.meta.url}.`);
  }
}
