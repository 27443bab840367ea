/**
 * The bundled sample shapefiles, built from npm data packages. Deterministic: building
 * again gives the same bytes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ShapeType } from '../../src/shapefile/types.ts';
import { linesCutAtAntimeridian, polygonsCutAtAntimeridian } from './antimeridian.ts';
import { beneluxInRd } from './benelux.ts';
import { bordersOf } from './borders.ts';
import { countriesOf, loadCountriesTopology } from '../../plugins/embedded/geodata/countries.ts';
import { countryCentres } from './country-centres.ts';
import { countryFactsOf } from './country-facts.ts';
import { RD_NEW_PRJ, WGS84_PRJ } from './crs.ts';
import { logicalField, logicalValue, numberField, textField, writeShapefile } from './write-shapefile.ts';

const README = `# Sample data

Built by \`npm run sample-data\` (scripts/build-sample-data.ts); do not edit by hand.
Every shapefile has a .prj and a .cpg; the .dbf text is UTF-8.

| File | Shapes | CRS | Fields |
|---|---|---|---|
| countries | polygons | WGS84 | NAME (English), NAME_NL (Dutch), ISO_N3, AREA_KM2 (number, km²), REGION and SUBREGION (text), LANDLOCKED (logical) |
| borders | polylines, one feature per pair of neighbouring countries | WGS84 | NAME (Dutch, 'België – Nederland'), NAME_EN |
| country_centres | points (the centre of each country, not its capital) | WGS84 | NAME, NAME_NL, CAPITAL, ISO_A3, ISO_N3 |
| benelux_rd | polygons of the Netherlands, Belgium and Luxembourg (European parts) | RD New, EPSG:28992 | NAME (Dutch), NAME_EN |

Sources: Natural Earth 1:50m Admin 0 countries (public domain) via the world-atlas
package (ISC licence); names, codes, centres, areas, regions and subregions from the
world-countries package (Open Database License 1.0, © Mohammed Le Doze), so
country_centres, the Dutch names and the countries' facts are available under the ODbL.
As in Natural Earth's own shapefiles, shapes are cut at ±180° (Russia, Fiji and Antarctica;
no border crosses it), the pieces staying polygons of one record: no ring spans the world.

The countries' facts, for thematic maps (\`styleBy=REGION\`, \`styleBy=AREA_KM2\`):

- AREA_KM2: the area in km² as world-countries gives it (a number with two decimals:
  Vatican City is 0.44). Empty (null) where world-countries has none.
- REGION: Africa, Americas, Antarctic, Asia, Europe or Oceania. SUBREGION: as
  world-countries names them (Western Europe, Caribbean, …); empty for the Antarctic.
- LANDLOCKED: T or F, a dBASE logical (shapeshot and its queryables call it a boolean;
  GDAL 3.6 lists it as a one-character string).
- Five Natural Earth areas have no world-countries entry of their own (Ashmore and
  Cartier Is., Indian Ocean Ter., N. Cyprus, Siachen Glacier, Somaliland): their region,
  subregion and LANDLOCKED are those of the land around them, set by hand in
  scripts/lib/country-facts.ts; their AREA_KM2 is empty.
`;

/** Writes the sample shapefiles and their README into `dataDir`. */
export function buildSampleData(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  const topology = loadCountriesTopology('50m');
  const countries = countriesOf(topology);
  const facts = countryFactsOf(countries);

  writeShapefile(
    join(dataDir, 'countries'),
    {
      shapeType: ShapeType.Polygon,
      prj: WGS84_PRJ,
      fields: [
        textField('NAME', countries.map((country) => country.name)),
        textField('NAME_NL', countries.map((country) => country.nameNl)),
        textField('ISO_N3', countries.map((country) => country.isoN3 ?? null)),
        numberField('AREA_KM2', facts.map((fact) => fact.areaKm2), 2),
        textField('REGION', facts.map((fact) => fact.region)),
        textField('SUBREGION', facts.map((fact) => fact.subregion)),
        logicalField('LANDLOCKED'),
      ],
    },
    countries.map((country, i) => ({
      geometry: polygonsCutAtAntimeridian(country.geometry),
      attributes: {
        NAME: country.name,
        NAME_NL: country.nameNl,
        ISO_N3: country.isoN3 ?? null,
        AREA_KM2: facts[i].areaKm2,
        REGION: facts[i].region,
        SUBREGION: facts[i].subregion,
        LANDLOCKED: logicalValue(facts[i].landlocked),
      },
    })),
  );

  const borders = bordersOf(topology, countries);
  writeShapefile(
    join(dataDir, 'borders'),
    {
      shapeType: ShapeType.PolyLine,
      prj: WGS84_PRJ,
      fields: [
        textField('NAME', borders.map((border) => border.name)),
        textField('NAME_EN', borders.map((border) => border.nameEn)),
      ],
    },
    borders.map((border) => ({ geometry: linesCutAtAntimeridian(border.geometry), attributes: { NAME: border.name, NAME_EN: border.nameEn } })),
  );

  const centres = countryCentres();
  writeShapefile(
    join(dataDir, 'country_centres'),
    {
      shapeType: ShapeType.Point,
      prj: WGS84_PRJ,
      fields: [
        textField('NAME', centres.map((centre) => centre.name)),
        textField('NAME_NL', centres.map((centre) => centre.nameNl)),
        textField('CAPITAL', centres.map((centre) => centre.capital)),
        textField('ISO_A3', centres.map((centre) => centre.isoA3)),
        textField('ISO_N3', centres.map((centre) => centre.isoN3)),
      ],
    },
    centres.map((centre) => ({
      geometry: centre.geometry,
      attributes: {
        NAME: centre.name,
        NAME_NL: centre.nameNl,
        CAPITAL: centre.capital,
        ISO_A3: centre.isoA3,
        ISO_N3: centre.isoN3 || null,
      },
    })),
  );

  const benelux = beneluxInRd(countries);
  writeShapefile(
    join(dataDir, 'benelux_rd'),
    {
      shapeType: ShapeType.Polygon,
      prj: RD_NEW_PRJ,
      fields: [textField('NAME', benelux.map((country) => country.name)), textField('NAME_EN', benelux.map((country) => country.nameEn))],
    },
    benelux.map((country) => ({ geometry: country.geometry, attributes: { NAME: country.name, NAME_EN: country.nameEn } })),
  );

  writeFileSync(join(dataDir, 'README.md'), README);
}

