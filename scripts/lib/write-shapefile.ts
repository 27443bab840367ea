import type { Geometry } from '../../src/geometry/types.ts';
import { createShapefileWriter, type DbfField, type ShapefileWriterOptions } from './shapefile-writer.ts';

export interface ShapefileRecord {
  geometry: Geometry;
  attributes: Record<string, string | number | null>;
}

/** The `.dbf` "last update" date, fixed so that building the sample data twice gives the same bytes. */
const DBF_DATE = new Date(Date.UTC(2025, 0, 1));

export function writeShapefile(basePath: string, options: ShapefileWriterOptions, records: readonly ShapefileRecord[]): void {
  const writer = createShapefileWriter(basePath, { ...options, date: DBF_DATE });
  for (const record of records) writer.write(record.geometry, record.attributes);
  writer.close();
}

/** A text field just wide enough for the longest value (in UTF-8 bytes), so nothing is cut. */
export function textField(name: string, values: ReadonlyArray<string | null>): DbfField {
  const length = Math.max(1, ...values.map((value) => Buffer.byteLength(value ?? '', 'utf8')));
  return { name, type: 'C', length };
}

/** A number field just wide enough for the widest value written with `decimals` digits after the point. */
export function numberField(name: string, values: ReadonlyArray<number | null>, decimals = 0): DbfField {
  const length = Math.max(1, ...values.map((value) => (value === null ? 0 : value.toFixed(decimals).length)));
  return { name, type: 'N', length, decimals };
}

/** A logical field: one byte, 'T' or 'F' (see logicalValue). */
export function logicalField(name: string): DbfField {
  return { name, type: 'L', length: 1 };
}

/** How a logical field holds a boolean: 'T', 'F', or blank for null. */
export function logicalValue(value: boolean | null): string | null {
  return value === null ? null : value ? 'T' : 'F';
}
