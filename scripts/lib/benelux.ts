/** The Benelux countries in RD New (EPSG:28992), the Dutch national grid. */
import type { MultiPolygon, Polygon, Position } from 'geojson';
import proj4 from 'proj4';
import type { Country } from '../../plugins/embedded/geodata/countries.ts';
import { RD_NEW_PROJ4 } from './crs.ts';

export interface BeneluxCountry {
  name: string;
  nameEn: string;
  geometry: MultiPolygon;
}

/** ISO numeric code and Dutch name as the Benelux spells it. */
const BENELUX = [
  { isoN3: '528', name: 'Nederland' },
  { isoN3: '056', name: 'België' },
  { isoN3: '442', name: 'Luxemburg' },
];

export function beneluxInRd(countries: readonly Country[]): BeneluxCountry[] {
  const toRd = proj4('EPSG:4326', RD_NEW_PROJ4);
  // Millimetres: finer than the source data, and immune to last-bit differences in Math.
  const project = ([lon, lat]: Position): Position => toRd.forward([lon, lat]).map((value) => Math.round(value * 1000) / 1000);
  return BENELUX.map(({ isoN3, name }) => {
    const country = countries.find((candidate) => candidate.isoN3 === isoN3);
    if (country === undefined) throw new Error(`Natural Earth has no country with ISO code ${isoN3}.`);
    const polygons = polygonsOf(country.geometry).filter(isInEurope);
    return {
      name,
      nameEn: country.name,
      geometry: { type: 'MultiPolygon', coordinates: polygons.map((rings) => rings.map((ring) => ring.map(project))) },
    };
  });
}

function polygonsOf(geometry: Polygon | MultiPolygon): Position[][][] {
  return geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
}

/** Drops the Caribbean parts of the Netherlands, which RD New cannot represent. */
function isInEurope(rings: Position[][]): boolean {
  const [lon, lat] = rings[0][0];
  return lon > -10 && lon < 30 && lat > 35 && lat < 60;
}
