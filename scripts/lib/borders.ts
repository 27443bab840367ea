/** Land borders between countries, one feature per pair of neighbours. */
import type { MultiLineString } from 'geojson';
import { mesh, neighbors } from 'topojson-client';
import type { CountriesTopology, Country } from '../../plugins/embedded/geodata/countries.ts';

export interface Border {
  /** 'België – Nederland': the two Dutch names in Dutch alphabetical order. */
  name: string;
  /** 'Belgium – Netherlands'. */
  nameEn: string;
  geometry: MultiLineString;
}

const dutchOrder = new Intl.Collator('nl').compare;
const englishOrder = new Intl.Collator('en').compare;

export function bordersOf(topology: CountriesTopology, countries: readonly Country[]): Border[] {
  const objects = countries.map((country) => country.topologyObject);
  const borders: Border[] = [];
  neighbors(objects).forEach((neighbours, i) => {
    for (const j of [...neighbours].sort((a, b) => a - b)) {
      if (j <= i) continue;
      const pair = { type: 'GeometryCollection' as const, geometries: [objects[i], objects[j]] };
      const geometry = mesh(topology, pair, (a, b) => a !== b);
      if (geometry.coordinates.length === 0) continue;
      borders.push({
        name: [countries[i].nameNl, countries[j].nameNl].sort(dutchOrder).join(' – '),
        nameEn: [countries[i].name, countries[j].name].sort(englishOrder).join(' – '),
        geometry,
      });
    }
  });
  return borders;
}
