/**
 * The shapefiles generated-request tests run against, written by the test into a folder of
 * its own: the shapes a realistic data folder holds that make answers large (many points,
 * many and wide text fields, polygons of many parts), hostile field names and text, and one
 * file damaged on purpose (the one file a 500 may name). The requests are generated from
 * what is listed here, so the generators know every file's fields and feature counts.
 */
import { join } from 'node:path';
import type { Position } from 'geojson';
import { createShapefileWriter, type DbfField } from '../../scripts/lib/shapefile-writer.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { RD_NEW_PRJ, square, WGS84_PRJ } from './fixtures.ts';
import { ringXY, writeRawShapefile } from './raw-shapefile.ts';

export interface GeneratedFile {
  /** As the catalog names it (the file's base name). */
  name: string;
  /** Its .dbf fields as the .dbf spells them. */
  fields: string[];
  /** Those of its fields that hold numbers. */
  numericFields: string[];
  features: number;
  /** Most children (parts) any feature has: ids 'parent.child' up to this are real. */
  maxChildren: number;
  /** Written broken on purpose: the one file whose answers may be 500. */
  damaged: boolean;
}

/** Text that XML forbids or that markup and parsers trip on, to end up in attributes and hot spots. */
export const HOSTILE_TEXTS = [
  '<b>&amp;"\'</b>',
  ']]><!--',
  'line\nbreak\ttab\rreturn',
  'bell\u0007escape\u001bunit\u001f',
  'Zoë Ω 東京 עברית',
  '\u{1F600}\u{1F9ED} \u200b\u202e',
  '\\u0000 \\"',
  '%00%ff%zz',
  '{"__proto__":{"x":1}}',
];

/** Field names that are also keys of every JavaScript object, and near misses of ordinary ones (10 characters at most). */
export const HOSTILE_FIELD_NAMES = ['__proto__', 'toString', 'valueOf', 'hasOwnProp', 'name_1', 'NAME'];

const POINT_FIELDS = [
  'NAME', 'STREET', 'HOUSENR', 'POSTCODE', 'CITY', 'MUNICIP', 'PROVINCE', 'COUNTRY', 'OWNER', 'USAGE',
  'STATUS', 'SOURCE', 'REMARK', 'DISTRICT', 'QUARTER', 'BUILDING', 'ENTRANCE', 'FLOOR', 'UNIT', 'LABEL',
];

export interface GeneratedDataOptions {
  /** Features of the points file (the address points of issue 18, scaled to what a test run can afford). */
  points: number;
}

/** Writes every generated shapefile into `dir` and says what it wrote. */
export function writeGeneratedData(dir: string, { points }: GeneratedDataOptions): GeneratedFile[] {
  return [writeAddressPoints(dir, points), writeWideTable(dir), writeManyParts(dir), writeUnplacedLines(dir), writeDamaged(dir), writeEmpty(dir)];
}

/** Address points: `count` points over the Netherlands with 20 text fields of 40 characters, every one filled. */
function writeAddressPoints(dir: string, count: number): GeneratedFile {
  const fields: DbfField[] = POINT_FIELDS.map((name) => ({ name, type: 'C', length: 40 }));
  const writer = createShapefileWriter(join(dir, 'points'), { shapeType: ShapeType.Point, fields, prj: WGS84_PRJ, date: FIXED_DATE });
  for (let i = 0; i < count; i++) {
    // A deterministic scatter (no two points alike), so every run writes the same file.
    const lon = 3.4 + ((i * 7919) % 10_007) / 10_007 * 3.8;
    const lat = 50.8 + ((i * 104_729) % 10_009) / 10_009 * 2.7;
    const attributes = Object.fromEntries(POINT_FIELDS.map((name, f) => [name, `${name.toLowerCase()} ${i} ${'x'.repeat((i + f) % 30)}`]));
    writer.write({ type: 'Point', coordinates: [lon, lat] }, attributes);
  }
  writer.close();
  return { name: 'points', fields: POINT_FIELDS, numericFields: [], features: count, maxChildren: 1, damaged: false };
}

/** 40 squares with 120 fields, some 254 bytes wide, holding hostile text and names that are object keys. */
function writeWideTable(dir: string): GeneratedFile {
  const fields: DbfField[] = [
    ...HOSTILE_FIELD_NAMES.map((name) => ({ name, type: 'C' as const, length: 254 })),
    ...Array.from({ length: 110 }, (_, i) => ({ name: `F${String(i).padStart(3, '0')}`, type: 'C' as const, length: i % 10 === 0 ? 254 : 24 })),
    ...Array.from({ length: 4 }, (_, i) => ({ name: `NUM${i}`, type: 'N' as const, length: 18, decimals: i })),
  ];
  const writer = createShapefileWriter(join(dir, 'wide'), { shapeType: ShapeType.Polygon, fields, prj: WGS84_PRJ, date: FIXED_DATE });
  for (let i = 0; i < 40; i++) {
    const text = (f: number) => HOSTILE_TEXTS[(i + f) % HOSTILE_TEXTS.length].repeat(1 + ((i * f) % 12));
    const attributes: Record<string, string | number | null> = Object.fromEntries(
      fields.map((field, f) => [field.name, field.type === 'N' ? (i % 7 === 0 ? null : (i - 20) * 1234.5678) : text(f)]),
    );
    const x = 4 + (i % 8) * 0.3;
    const y = 51 + Math.floor(i / 8) * 0.3;
    writer.write({ type: 'Polygon', coordinates: [square(x, y, 0.25)] }, attributes);
  }
  writer.close();
  return { name: 'wide', fields: fields.map((field) => field.name), numericFields: fields.filter((field) => field.type === 'N').map((field) => field.name), features: 40, maxChildren: 1, damaged: false };
}

/** 12 RD New multipolygons: feature i has 1 + i² × 20 parts (up to 2,421), each a jagged ring. */
function writeManyParts(dir: string): GeneratedFile {
  const fields: DbfField[] = [{ name: 'NAME', type: 'C', length: 60 }, { name: 'PARTS', type: 'N', length: 10 }];
  const writer = createShapefileWriter(join(dir, 'parts'), { shapeType: ShapeType.Polygon, fields, prj: RD_NEW_PRJ, date: FIXED_DATE });
  let maxChildren = 0;
  for (let i = 0; i < 12; i++) {
    const parts = 1 + i * i * 20;
    maxChildren = Math.max(maxChildren, parts);
    const polygons: Position[][][] = Array.from({ length: parts }, (_, p) => {
      const ring = ringXY(100_000 + (p % 50) * 300, 400_000 + i * 20_000 + Math.floor(p / 50) * 300, 100, 6 + (p % 20), 0.3);
      return [positionsOf(ring)];
    });
    writer.write({ type: 'MultiPolygon', coordinates: polygons }, { NAME: `${parts} parts ${HOSTILE_TEXTS[i % HOSTILE_TEXTS.length]}`, PARTS: parts });
  }
  writer.close();
  return { name: 'parts', fields: ['NAME', 'PARTS'], numericFields: ['PARTS'], features: 12, maxChildren, damaged: false };
}

/** Lines in lon/lat without a .prj (placed by the lon/lat rule), with many parts and a null shape. */
function writeUnplacedLines(dir: string): GeneratedFile {
  const fields: DbfField[] = [{ name: 'ROAD', type: 'C', length: 30 }, { name: 'LANES', type: 'N', length: 4 }];
  const writer = createShapefileWriter(join(dir, 'lines'), { shapeType: ShapeType.PolyLine, fields, date: FIXED_DATE });
  for (let i = 0; i < 30; i++) {
    if (i === 7) {
      writer.write(null, { ROAD: 'no shape', LANES: null });
      continue;
    }
    const parts = 1 + (i % 10) * 30;
    const lines: Position[][] = Array.from({ length: parts }, (_, p) => [
      [-170 + i * 11 + p * 0.01, -60 + p * 0.3],
      [-169 + i * 11 + p * 0.01, -59 + p * 0.3],
      [-168.5 + i * 11, -59.5 + p * 0.3],
    ]);
    writer.write({ type: 'MultiLineString', coordinates: lines }, { ROAD: `A${i}`, LANES: i % 4 });
  }
  writer.close();
  return { name: 'lines', fields: ['ROAD', 'LANES'], numericFields: ['LANES'], features: 30, maxChildren: 271, damaged: false };
}

/** Record 1 has a NaN coordinate: damage that answers 500 naming the file and the record. */
function writeDamaged(dir: string): GeneratedFile {
  // The writer makes the .dbf (and a .shp that the raw writer then replaces with a damaged one).
  const writer = createShapefileWriter(join(dir, 'damaged'), { shapeType: ShapeType.PolyLine, fields: [{ name: 'NAME', type: 'C', length: 10 }], prj: WGS84_PRJ, date: FIXED_DATE });
  for (let i = 0; i < 3; i++) writer.write({ type: 'LineString', coordinates: [[4, 52], [5, 53]] }, { NAME: `line ${i}` });
  writer.close();
  const line = (xy: number[]) => ({ shapeType: ShapeType.PolyLine, xy: Float64Array.from(xy), bbox: [4, 52, 5, 53] as [number, number, number, number] });
  writeRawShapefile(join(dir, 'damaged'), ShapeType.PolyLine, [line([4, 52, 5, 53]), line([4, 52, NaN, 53]), line([4.5, 52.5, 5, 53])], {
    headerBBox: [4, 52, 5, 53],
    prj: WGS84_PRJ,
  });
  return { name: 'damaged', fields: ['NAME'], numericFields: [], features: 3, maxChildren: 1, damaged: true };
}

/** A polygon file with no features at all. */
function writeEmpty(dir: string): GeneratedFile {
  const writer = createShapefileWriter(join(dir, 'empty'), { shapeType: ShapeType.Polygon, fields: [{ name: 'NAME', type: 'C', length: 10 }], prj: WGS84_PRJ, date: FIXED_DATE });
  writer.close();
  return { name: 'empty', fields: ['NAME'], numericFields: [], features: 0, maxChildren: 0, damaged: false };
}

/** The .dbf date, fixed so that the files (and their ETags) are the same on every run. */
const FIXED_DATE = new Date(Date.UTC(2026, 0, 1));

function positionsOf(xy: Float64Array): Position[] {
  const positions: Position[] = [];
  for (let i = 0; i < xy.length; i += 2) positions.push([xy[i], xy[i + 1]]);
  return positions;
}
