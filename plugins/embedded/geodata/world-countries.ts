import { createRequire } from 'node:module';
import type { Countries } from 'world-countries';

/** The world-countries list (loaded through require: the package is CommonJS). */
export const worldCountries = createRequire(import.meta.url)('world-countries') as Countries;
