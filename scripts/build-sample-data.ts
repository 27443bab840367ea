/**
 * Builds the bundled sample shapefiles into data/ (or the folder given as the first
 * argument). Run with `npm run sample-data`.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSampleData } from './lib/sample-data.ts';

const dataDir = process.argv[2] === undefined ? fileURLToPath(new URL('../data/', import.meta.url)) : resolve(process.argv[2]);
buildSampleData(dataDir);
