/**
 * The facts the sample `countries` carry beyond their names, so that a thematic map has
 * something to colour by: area (a number), region and subregion (categories) and whether
 * the country is landlocked (a logical), from the world-countries package we already use.
 */
import type { Country } from '../../plugins/embedded/geodata/countries.ts';
import { worldCountries } from '../../plugins/embedded/geodata/world-countries.ts';

export interface CountryFacts {
  /** km², as world-countries gives it; null where it has none. */
  areaKm2: number | null;
  /** 'Africa', 'Americas', 'Antarctic', 'Asia', 'Europe' or 'Oceania'. */
  region: string | null;
  /** 'Western Europe', 'Caribbean', …; null where world-countries has none (the Antarctic). */
  subregion: string | null;
  landlocked: boolean | null;
}

type Place = Omit<CountryFacts, 'areaKm2'>;

/**
 * The Natural Earth areas world-countries has no entry of their own for (Ashmore and
 * Cartier shares Australia's ISO code, so a join by code would give it Australia's area).
 * Region and subregion are those of the land around them, as world-countries files its
 * neighbours; the area stays unknown rather than guessed.
 */
const PLACES_BY_NATURAL_EARTH_NAME: Record<string, Place> = {
  'Ashmore and Cartier Is.': { region: 'Oceania', subregion: 'Australia and New Zealand', landlocked: false },
  'Indian Ocean Ter.': { region: 'Oceania', subregion: 'Australia and New Zealand', landlocked: false },
  'N. Cyprus': { region: 'Europe', subregion: 'Southern Europe', landlocked: false },
  'Siachen Glacier': { region: 'Asia', subregion: 'Southern Asia', landlocked: true },
  Somaliland: { region: 'Africa', subregion: 'Eastern Africa', landlocked: false },
};

type WorldCountry = ReturnType<typeof worldCountries>[number];

/** Joins on the ISO 3166 numeric code, then the English name, as countriesOf joins the Dutch names. */
export function countryFactsOf(countries: readonly Country[]): CountryFacts[] {
  const byIsoN3 = new Map(worldCountries().map((entry) => [entry.ccn3, entry]));
  const byEnglish = new Map(worldCountries().map((entry) => [entry.name.common, entry]));
  return countries.map((country) => {
    const place = PLACES_BY_NATURAL_EARTH_NAME[country.name];
    if (place !== undefined) return { areaKm2: null, ...place };
    const entry = (country.isoN3 === undefined ? undefined : byIsoN3.get(country.isoN3)) ?? byEnglish.get(country.name);
    if (entry === undefined) throw new Error(`No world-countries entry for '${country.name}' (ISO ${country.isoN3}).`);
    return factsOf(entry);
  });
}

function factsOf(entry: WorldCountry): CountryFacts {
  return {
    // world-countries writes -1 where it has no area (Svalbard and Jan Mayen).
    areaKm2: entry.area > 0 ? entry.area : null,
    region: entry.region || null,
    subregion: entry.subregion || null,
    landlocked: entry.landlocked,
  };
}
