import { openSync, closeSync, writeSync } from 'node:fs';
import type { Geometry } from '../../src/geometry/types.ts';
import { createShapefileWriter, type DbfField, type ShapefileWriterOptions } from '../../src/shapefile/writer.ts';

export interface ShapefileRecord {
  geometry: Geometry;
  attributes: Record<string, string | number | null>;
}

/**
 * The `.dbf` "last update" date (YY since 1900, month, day). Fixed, so that building the
 * sample data twice gives the same bytes.
 */
const DBF_DATE = Uint8Array.of(2025 - 1900, 1, 1);

export function writeShapefile(basePath: string, options: ShapefileWriterOptions, records: readonly ShapefileRecord[]): void {
  const writer = createShapefileWriter(basePath, options);
  for (const record of records) writer.write(record.geometry, record.attributes);
  writer.close();
  const dbf = openSync(`${basePath}.dbf`, 'r+');
  try {
    writeSync(dbf, DBF_DATE, 0, DBF_DATE.length, 1);
  } finally {
    closeSync(dbf);
  }
}

/** A text field just wide enough for the longest value (in UTF-8 bytes), so nothing is cut. */
export function textField(name: string, values: ReadonlyArray<string | null>): DbfField {
  const length = Math.max(1, ...values.map((value) => Buffer.byteLength(value ?? '', 'utf8')));
  return { name, type: 'C', length };
}
