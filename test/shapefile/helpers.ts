import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Geometry } from '../../src/geometry/types.ts';
import { createShapefileWriter, type DbfField } from '../../scripts/lib/shapefile-writer.ts';

export interface WriteOptions {
  fields?: DbfField[];
  attributes?: Record<string, string | number | null>[];
  prj?: string;
  encoding?: string;
}

/** Writes `name` into `dir` with one record per geometry; attributes default to NAME = "<name> <i>". */
export function writeShapefile(
  dir: string,
  name: string,
  shapeType: number,
  geometries: (Geometry | null)[],
  options: WriteOptions = {},
): string {
  const fields = options.fields ?? [{ name: 'NAME', type: 'C', length: 30 }];
  const writer = createShapefileWriter(join(dir, name), {
    shapeType,
    fields,
    prj: options.prj,
    encoding: options.encoding,
  });
  geometries.forEach((geometry, i) => writer.write(geometry, options.attributes?.[i] ?? { NAME: `${name} ${i}` }));
  writer.close();
  return join(dir, name);
}

/** Rewrites bytes of a file in place: `edit` gets the whole file and returns the new content. */
export function editFile(path: string, edit: (bytes: Buffer) => Buffer): void {
  writeFileSync(path, edit(readFileSync(path)));
}

/** Byte offset and content length of record `fid`, from the .shx. */
export function recordLocation(basePath: string, fid: number): { offset: number; contentBytes: number } {
  const shx = readFileSync(`${basePath}.shx`);
  return { offset: shx.readInt32BE(100 + 8 * fid) * 2, contentBytes: shx.readInt32BE(104 + 8 * fid) * 2 };
}
