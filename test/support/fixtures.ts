import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Position } from 'geojson';
import { createShapefileWriter } from '../../scripts/lib/shapefile-writer.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import type { Geometry } from '../../src/geometry/types.ts';

export const RD_NEW_PRJ =
  'PROJCS["RD_New",GEOGCS["GCS_Amersfoort",DATUM["D_Amersfoort",SPHEROID["Bessel_1841",6377397.155,299.1528128]],' +
  'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Double_Stereographic"],' +
  'PARAMETER["False_Easting",155000.0],PARAMETER["False_Northing",463000.0],PARAMETER["Central_Meridian",5.38763888888889],' +
  'PARAMETER["Scale_Factor",0.9999079],PARAMETER["Latitude_Of_Origin",52.15616055555555],UNIT["Meter",1.0]]';

export const WGS84_PRJ =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';

/** A square ring from (x, y) with side `side` (orientation is the writer's business). */
export function square(x: number, y: number, side: number): Position[] {
  return [
    [x, y],
    [x, y + side],
    [x + side, y + side],
    [x + side, y],
    [x, y],
  ];
}

const X0 = 100_000;
const Y0 = 400_000;

/**
 * Shapefiles with geometry whose pixels the tests can predict:
 * - squares (RD New): 0 a 1000 m square; 1 the same with a 200 m hole in the middle;
 *   2 two 1000 m squares side by side (children 2.0 left, 2.1 right); 3 a null shape;
 *   4 a 2000 x 500 rectangle; 5 a 100-gon circle of radius 500.
 * - lines (RD New): 0 a horizontal 1000 m line; 1 two parts.
 * - points (WGS84): 0 one point; 1 a second point.
 * - cities (WGS84 MultiPoint): 0 three points.
 * - arctic (WGS84): 0 a 10° square from 60°N to 70°N.
 */
export function writeFixtures(dir = mkdtempSync(join(tmpdir(), 'shapeshot-fixtures-'))): string {
  const nameField = [{ name: 'NAME', type: 'C' as const, length: 40 }];
  const write = (name: string, shapeType: number, prj: string, geometries: (Geometry | null)[]) => {
    const writer = createShapefileWriter(join(dir, name), { shapeType, fields: nameField, prj });
    geometries.forEach((geometry, i) => writer.write(geometry, { NAME: `${name} ${i}` }));
    writer.close();
  };
  const circle: Position[] = Array.from({ length: 101 }, (_, i) => {
    const angle = (-2 * Math.PI * (i % 100)) / 100;
    return [X0 + 500 + 500 * Math.cos(angle), Y0 + 500 + 500 * Math.sin(angle)];
  });
  write('squares', ShapeType.Polygon, RD_NEW_PRJ, [
    { type: 'Polygon', coordinates: [square(X0, Y0, 1000)] },
    { type: 'Polygon', coordinates: [square(X0, Y0, 1000), square(X0 + 400, Y0 + 400, 200)] },
    { type: 'MultiPolygon', coordinates: [[square(X0, Y0, 1000)], [square(X0 + 2000, Y0, 1000)]] },
    null,
    { type: 'Polygon', coordinates: [[[X0, Y0], [X0, Y0 + 500], [X0 + 2000, Y0 + 500], [X0 + 2000, Y0], [X0, Y0]]] },
    { type: 'Polygon', coordinates: [circle] },
  ]);
  write('lines', ShapeType.PolyLine, RD_NEW_PRJ, [
    { type: 'LineString', coordinates: [[X0, Y0], [X0 + 1000, Y0]] },
    { type: 'MultiLineString', coordinates: [[[X0, Y0], [X0 + 1000, Y0]], [[X0, Y0 + 500], [X0 + 1000, Y0 + 500]]] },
  ]);
  write('points', ShapeType.Point, WGS84_PRJ, [
    { type: 'Point', coordinates: [5.1, 52.1] },
    { type: 'Point', coordinates: [4.9, 52.4] },
  ]);
  write('cities', ShapeType.MultiPoint, WGS84_PRJ, [
    { type: 'MultiPoint', coordinates: [[4.9, 52.4], [5.1, 52.1], [4.5, 51.9]] },
  ]);
  write('arctic', ShapeType.Polygon, WGS84_PRJ, [{ type: 'Polygon', coordinates: [square(10, 60, 10)] }]);
  return dir;
}
