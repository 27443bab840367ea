/**
 * The world-countries package, required in one place (it is CommonJS) for the two that read it:
 * the embedded basemap's Dutch country names (countries.ts) and the sample-data scripts
 * (scripts/lib/), which build their shapefiles from the same countries.
 */
import { createRequire } from 'node:module';
import type { Countries } from 'world-countries';

let countries: Countries | undefined;

/** The world-countries list (loaded through require: the package is CommonJS), read on first use: 1.4 MB of JSON that only labels need. */
export function worldCountries(): Countries {
  countries ??= createRequire(import.meta.url)('world-countries') as Countries;
  return countries;
}
