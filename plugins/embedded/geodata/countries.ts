/**
 * Natural Earth countries (from world-atlas) with English names as Natural Earth spells
 * them and Dutch names from world-countries, joined on the ISO 3166 numeric code. The
 * embedded basemap draws and labels them; the sample-data scripts build their shapefiles
 * from the same data.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, GeometryObject, Topology } from 'topojson-specification';
import { worldCountries } from './world-countries.ts';

export interface Country {
  /** English, as Natural Earth spells it ('Côte d'Ivoire', 'Dem. Rep. Congo'). */
  name: string;
  nameNl: string;
  /** ISO 3166-1 numeric, three digits; undefined for areas without one (Kosovo, N. Cyprus). */
  isoN3: string | undefined;
  geometry: Polygon | MultiPolygon;
  /** The country's geometry object in the topology, for finding shared borders. */
  topologyObject: GeometryObject;
}

/** world-atlas's countries file: the countries, and their union as `land`. */
export type CountriesTopology = Topology<{ countries: GeometryCollection<{ name: string }>; land: GeometryCollection }>;

/** Dutch names of the Natural Earth areas that world-countries has no entry for. */
const DUTCH_NAMES_BY_NATURAL_EARTH_NAME: Record<string, string> = {
  'Ashmore and Cartier Is.': 'Ashmore- en Cartiereilanden',
  'Indian Ocean Ter.': 'Australische gebieden in de Indische Oceaan',
  'N. Cyprus': 'Noord-Cyprus',
  'Siachen Glacier': 'Siachengletsjer',
  Somaliland: 'Somaliland',
};

/** Natural Earth's scales: 1:110 million, 1:50 million, 1:10 million. */
export type NaturalEarthScale = '110m' | '50m' | '10m';

export function loadCountriesTopology(scale: NaturalEarthScale): CountriesTopology {
  return JSON.parse(readFileSync(countriesFile(scale), 'utf8')) as CountriesTopology;
}

/** Where world-atlas's countries file at `scale` is. */
export function countriesFile(scale: NaturalEarthScale): string {
  return createRequire(import.meta.url).resolve(`world-atlas/countries-${scale}.json`);
}

export function countriesOf(topology: CountriesTopology): Country[] {
  const objects = topology.objects.countries.geometries;
  return countryNamesOf(objects).map((names, index) => {
    const { geometry } = feature(topology, objects[index]) as Feature;
    if (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon') {
      throw new Error(`'${names.name}' is a ${geometry.type}, not a polygon.`);
    }
    return { ...names, geometry, topologyObject: objects[index] };
  });
}

/** The names of each country object of world-atlas: Natural Earth's English one, and the Dutch one joined to it. */
export function countryNamesOf(objects: readonly GeometryObject[]): Pick<Country, 'name' | 'nameNl' | 'isoN3'>[] {
  const dutchByIsoN3 = new Map(worldCountries().map((country) => [country.ccn3, country.translations.nld.common]));
  const dutchByEnglish = new Map(worldCountries().map((country) => [country.name.common, country.translations.nld.common]));
  return objects.map((object) => {
    const name = (object.properties as { name?: string } | undefined)?.name;
    if (name === undefined) throw new Error(`A country in world-atlas has no name (ISO ${object.id}).`);
    const isoN3 = object.id === undefined ? undefined : String(object.id);
    const nameNl =
      DUTCH_NAMES_BY_NATURAL_EARTH_NAME[name] ??
      (isoN3 === undefined ? undefined : dutchByIsoN3.get(isoN3)) ??
      dutchByEnglish.get(name);
    if (nameNl === undefined) throw new Error(`No Dutch name for '${name}' (ISO ${isoN3}).`);
    return { name, nameNl, isoN3 };
  });
}
