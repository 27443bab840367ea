/** Country centres (not capitals: world-countries has no capital coordinates) as points. */
import type { Point } from 'geojson';
import { worldCountries } from '../../plugins/embedded/geodata/world-countries.ts';

export interface CountryCentre {
  name: string;
  nameNl: string;
  capital: string;
  isoA3: string;
  /** Empty for Kosovo, which has no ISO numeric code. */
  isoN3: string;
  geometry: Point;
}

export function countryCentres(): CountryCentre[] {
  return worldCountries().map((country) => ({
    name: country.name.common,
    nameNl: country.translations.nld.common,
    capital: country.capital.join(', '),
    isoA3: country.cca3,
    isoN3: country.ccn3,
    geometry: { type: 'Point', coordinates: [country.latlng[1], country.latlng[0]] },
  }));
}
