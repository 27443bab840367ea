/**
 * Newcomers often have their data in another format (a GeoJSON export, a GeoPackage) and
 * start shapeshot on it: the start-up messages then show the one GDAL command that makes
 * shapefiles of it, rather than only saying what shapeshot does not read.
 */
import { extname } from 'node:path';
import { shellWord } from './shell-word.ts';

/** Vector formats that GDAL's ogr2ogr reads and a user is likely to hold; not every one it reads. */
const CONVERTIBLE = new Set(['.geojson', '.json', '.gpkg', '.kml', '.gml', '.fgb', '.gpx', '.tab', '.mif']);
/** The files one shapefile is made of; a user may give any of them in place of the folder. */
const SHAPEFILE_PARTS = new Set(['.shp', '.shx', '.dbf', '.prj', '.cpg']);

export function isShapefilePart(fileName: string): boolean {
  return SHAPEFILE_PARTS.has(extname(fileName).toLowerCase());
}

export function convertsToShapefile(fileName: string): boolean {
  return CONVERTIBLE.has(extname(fileName).toLowerCase());
}

/** The command that writes the layers of `source` as shapefiles into `folder`, which it creates if need be. */
export function ogr2ogrCommand(source: string, folder: string): string {
  return `ogr2ogr -f "ESRI Shapefile" ${shellWord(folder)} ${shellWord(source)}`;
}
