import { fileURLToPath } from 'node:url';

/**
 * Folders that ship with the package, found from this module (src/config/, or
 * dist/src/config/ in the published build, which has them copied beside it) rather than
 * from the working directory: a server started from node_modules/shapeshot finds them too.
 */
export const SAMPLE_DATA_DIR = fileURLToPath(new URL('../../data/', import.meta.url));
export const BUNDLED_THEMES_DIR = fileURLToPath(new URL('../../themes/', import.meta.url));
