/**
 * Streams a shapefile (.shp, .shx, .dbf, .cpg and optionally .prj) to disk, one record at a
 * time, so files of millions of features are written in constant memory. A tool for tests,
 * the benchmark and the sample data, not part of the service; tests that must catch a
 * misreading shared by writer and reader use files written by GDAL and pyshp instead.
 *
 * Z types take Z from a position's third value and M from its fourth; M types take M
 * from the third. Missing values are written as 0.
 */
import { rmSync, writeFileSync } from 'node:fs';
import type { Position } from 'geojson';
import type { Geometry } from '../../src/geometry/types.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { ChunkedFile } from './chunked-file.ts';
import { encoderFor, encodingFromLabel, ldidFor } from '../../src/shapefile/encoding.ts';

export interface DbfField {
  /** At most 10 ASCII characters. */
  name: string;
  /** C: character, N: numeric, L: logical ('T' or 'F'; null is left blank, which readers take as null). */
  type: 'C' | 'N' | 'L';
  /** Bytes in a row, 1–254. */
  length: number;
  /** Digits after the decimal point (N only). */
  decimals?: number;
}

export interface ShapefileWriterOptions {
  shapeType: number;
  fields: DbfField[];
  /** Written as the `.prj` when given; an older `.prj` of the same name is removed otherwise. */
  prj?: string;
  /** Encoding of the `.dbf` text, recorded in the `.cpg` and the LDID byte. Default UTF-8. */
  encoding?: 'UTF-8' | string;
  /** The `.dbf` "last update" date; fix it to make the output reproducible. Default: today. */
  date?: Date;
}

export interface ShapefileWriter {
  write(geometry: Geometry | null, attributes: Record<string, string | number | null>): void;
  close(): void;
}

type Dimensions = 'xy' | 'xym' | 'xyzm';

interface Extent {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
  zmin: number;
  zmax: number;
  mmin: number;
  mmax: number;
}

const HEADER_BYTES = 100;
const FILE_CODE = 9994;
const VERSION = 1000;

/** `basePath` is the path without extension (a trailing `.shp` is ignored). */
export function createShapefileWriter(basePath: string, options: ShapefileWriterOptions): ShapefileWriter {
  const base = basePath.replace(/\.shp$/i, '');
  const { shapeType } = options;
  const family = familyOf(shapeType);
  const dimensions = dimensionsOf(shapeType);
  const encoding = options.encoding ?? 'UTF-8';
  const date = options.date ?? new Date();
  const encode = encoderFor(encoding);
  const fields = options.fields.map(validateField);

  const shp = new ChunkedFile(`${base}.shp`);
  const shx = new ChunkedFile(`${base}.shx`);
  const dbf = new ChunkedFile(`${base}.dbf`);
  shp.reserve(HEADER_BYTES);
  shx.reserve(HEADER_BYTES);
  dbf.append(dbfHeader(fields, 0, ldidFor(encoding), date));
  writeFileSync(`${base}.cpg`, encodingFromLabel(encoding) === 'utf-8' ? 'UTF-8' : encoding);
  if (options.prj !== undefined) writeFileSync(`${base}.prj`, options.prj);
  else rmSync(`${base}.prj`, { force: true });

  const extent: Extent = {
    xmin: Infinity, ymin: Infinity, xmax: -Infinity, ymax: -Infinity,
    zmin: Infinity, zmax: -Infinity, mmin: Infinity, mmax: -Infinity,
  };
  const rowBytes = 1 + fields.reduce((sum, field) => sum + field.length, 0);
  let count = 0;
  let closed = false;

  return {
    write(geometry, attributes) {
      if (closed) throw new Error('The shapefile writer is closed.');
      const parts = geometry === null ? undefined : partsOf(geometry, family);
      const row = encodeRow(fields, attributes, encode, rowBytes);
      const contentBytes = parts === undefined ? 4 : contentLength(family, dimensions, parts);

      const index = shx.reserve(8);
      index.view.setInt32(index.offset, shp.length / 2);
      index.view.setInt32(index.offset + 4, contentBytes / 2);
      const record = shp.reserve(8 + contentBytes);
      record.view.setInt32(record.offset, count + 1);
      record.view.setInt32(record.offset + 4, contentBytes / 2);
      if (parts === undefined) record.view.setInt32(record.offset + 8, ShapeType.Null, true);
      else writeContent(record.view, record.offset + 8, shapeType, family, dimensions, parts, extent);
      dbf.append(row);
      count++;
    },

    close() {
      if (closed) return;
      closed = true;
      const header = shpHeader(shapeType, count > 0 && extent.xmin <= extent.xmax ? extent : undefined);
      const view = new DataView(header.buffer);
      view.setInt32(24, shp.length / 2);
      shp.patch(0, header);
      view.setInt32(24, shx.length / 2);
      shx.patch(0, header);
      dbf.append(Uint8Array.of(0x1a));
      dbf.patch(0, dbfHeader(fields, count, ldidFor(encoding), date).subarray(0, 12));
      shp.close();
      shx.close();
      dbf.close();
    },
  };
}

type Family = 'point' | 'multipoint' | 'polyline' | 'polygon';

function familyOf(shapeType: number): Family {
  switch (shapeType) {
    case ShapeType.Point: case ShapeType.PointZ: case ShapeType.PointM: return 'point';
    case ShapeType.MultiPoint: case ShapeType.MultiPointZ: case ShapeType.MultiPointM: return 'multipoint';
    case ShapeType.PolyLine: case ShapeType.PolyLineZ: case ShapeType.PolyLineM: return 'polyline';
    case ShapeType.Polygon: case ShapeType.PolygonZ: case ShapeType.PolygonM: return 'polygon';
    default: throw new Error(`The shapefile writer cannot write shape type ${shapeType}.`);
  }
}

function dimensionsOf(shapeType: number): Dimensions {
  if (shapeType > 20) return 'xym';
  if (shapeType > 10) return 'xyzm';
  return 'xy';
}

/** The geometry as the parts the record stores: rings or lines; one part for points. */
function partsOf(geometry: Geometry, family: Family): Position[][] {
  switch (family) {
    case 'point':
      if (geometry.type === 'Point') return [[geometry.coordinates]];
      break;
    case 'multipoint':
      if (geometry.type === 'Point') return [[geometry.coordinates]];
      if (geometry.type === 'MultiPoint') return [geometry.coordinates];
      break;
    case 'polyline':
      if (geometry.type === 'LineString') return [geometry.coordinates];
      if (geometry.type === 'MultiLineString') return geometry.coordinates;
      break;
    case 'polygon':
      if (geometry.type === 'Polygon') return esriRings(geometry.coordinates);
      if (geometry.type === 'MultiPolygon') return geometry.coordinates.flatMap(esriRings);
      break;
  }
  throw new Error(`A ${geometry.type} cannot be written to a ${family} shapefile.`);
}

/** Closed rings, the outer one clockwise and holes counter-clockwise (y up), as ESRI requires. */
function esriRings(polygon: Position[][]): Position[][] {
  return polygon.map((ring, index) => {
    const closed = isClosed(ring) ? ring : [...ring, ring[0]];
    const clockwise = signedArea(closed) < 0;
    return clockwise === (index === 0) ? closed : [...closed].reverse();
  });
}

function isClosed(ring: Position[]): boolean {
  const first = ring[0];
  const last = ring[ring.length - 1];
  return ring.length > 1 && first[0] === last[0] && first[1] === last[1];
}

function signedArea(ring: Position[]): number {
  let area = 0;
  for (let i = 1; i < ring.length; i++) {
    area += (ring[i - 1][0] - ring[i][0]) * (ring[i - 1][1] + ring[i][1]);
  }
  return area / 2;
}

function contentLength(family: Family, dimensions: Dimensions, parts: Position[][]): number {
  const points = parts.reduce((sum, part) => sum + part.length, 0);
  const measured = dimensions === 'xy' ? 0 : 16 + 8 * points;
  const z = dimensions === 'xyzm' ? 16 + 8 * points : 0;
  switch (family) {
    case 'point': return 20 + (dimensions === 'xy' ? 0 : 8) + (dimensions === 'xyzm' ? 8 : 0);
    case 'multipoint': return 40 + 16 * points + z + measured;
    default: return 44 + 4 * parts.length + 16 * points + z + measured;
  }
}

function writeContent(
  view: DataView,
  start: number,
  shapeType: number,
  family: Family,
  dimensions: Dimensions,
  parts: Position[][],
  extent: Extent,
): void {
  const points = parts.flat();
  const zOf = (p: Position) => (dimensions === 'xyzm' ? (p[2] ?? 0) : 0);
  const mOf = (p: Position) => (dimensions === 'xyzm' ? (p[3] ?? 0) : dimensions === 'xym' ? (p[2] ?? 0) : 0);
  for (const p of points) {
    extent.xmin = Math.min(extent.xmin, p[0]);
    extent.ymin = Math.min(extent.ymin, p[1]);
    extent.xmax = Math.max(extent.xmax, p[0]);
    extent.ymax = Math.max(extent.ymax, p[1]);
    extent.zmin = Math.min(extent.zmin, zOf(p));
    extent.zmax = Math.max(extent.zmax, zOf(p));
    extent.mmin = Math.min(extent.mmin, mOf(p));
    extent.mmax = Math.max(extent.mmax, mOf(p));
  }
  let at = start;
  const int = (value: number) => { view.setInt32(at, value, true); at += 4; };
  const double = (value: number) => { view.setFloat64(at, value, true); at += 8; };

  int(shapeType);
  if (family === 'point') {
    const [p] = points;
    double(p[0]);
    double(p[1]);
    if (dimensions === 'xyzm') double(zOf(p));
    if (dimensions !== 'xy') double(mOf(p));
    return;
  }
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  double(minOf(xs)); double(minOf(ys)); double(maxOf(xs)); double(maxOf(ys));
  if (family !== 'multipoint') int(parts.length);
  int(points.length);
  if (family !== 'multipoint') {
    let first = 0;
    for (const part of parts) { int(first); first += part.length; }
  }
  for (const p of points) { double(p[0]); double(p[1]); }
  const ordinates = dimensions === 'xyzm' ? [points.map(zOf), points.map(mOf)] : dimensions === 'xym' ? [points.map(mOf)] : [];
  for (const values of ordinates) {
    double(minOf(values)); double(maxOf(values));
    for (const value of values) double(value);
  }
}

function minOf(values: number[]): number {
  let min = Infinity;
  for (const value of values) if (value < min) min = value;
  return min;
}

function maxOf(values: number[]): number {
  let max = -Infinity;
  for (const value of values) if (value > max) max = value;
  return max;
}

function shpHeader(shapeType: number, extent: Extent | undefined): Uint8Array {
  const header = new Uint8Array(HEADER_BYTES);
  const view = new DataView(header.buffer);
  view.setInt32(0, FILE_CODE);
  view.setInt32(28, VERSION, true);
  view.setInt32(32, shapeType, true);
  if (extent) {
    const values = [extent.xmin, extent.ymin, extent.xmax, extent.ymax];
    if (shapeType > 10 && shapeType < 20) values.push(extent.zmin, extent.zmax);
    else values.push(0, 0);
    if (shapeType > 10) values.push(extent.mmin, extent.mmax);
    values.forEach((value, i) => view.setFloat64(36 + 8 * i, value, true));
  }
  return header;
}

function validateField(field: DbfField): DbfField {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,9}$/.test(field.name)) {
    throw new Error(`DBF field name '${field.name}' must be 1–10 ASCII letters, digits or underscores.`);
  }
  if (!Number.isInteger(field.length) || field.length < 1 || field.length > 254) {
    throw new Error(`DBF field '${field.name}' must have a length from 1 to 254.`);
  }
  return field;
}

function dbfHeader(fields: DbfField[], records: number, ldid: number, date: Date): Uint8Array {
  const headerBytes = 32 + 32 * fields.length + 1;
  const header = new Uint8Array(headerBytes);
  const view = new DataView(header.buffer);
  view.setUint8(0, 0x03);
  view.setUint8(1, date.getUTCFullYear() - 1900);
  view.setUint8(2, date.getUTCMonth() + 1);
  view.setUint8(3, date.getUTCDate());
  view.setUint32(4, records, true);
  view.setUint16(8, headerBytes, true);
  view.setUint16(10, 1 + fields.reduce((sum, field) => sum + field.length, 0), true);
  view.setUint8(29, ldid);
  fields.forEach((field, i) => {
    const at = 32 + 32 * i;
    for (let c = 0; c < field.name.length; c++) header[at + c] = field.name.charCodeAt(c);
    header[at + 11] = field.type.charCodeAt(0);
    header[at + 16] = field.length;
    header[at + 17] = field.type === 'N' ? (field.decimals ?? 0) : 0;
  });
  header[headerBytes - 1] = 0x0d;
  return header;
}

const SPACE = 0x20;

function encodeRow(
  fields: DbfField[],
  attributes: Record<string, string | number | null>,
  encode: (text: string) => Uint8Array,
  rowBytes: number,
): Uint8Array {
  const row = new Uint8Array(rowBytes).fill(SPACE);
  let at = 1;
  for (const field of fields) {
    const value = attributes[field.name];
    if (value !== null && value !== undefined) {
      const bytes = field.type === 'N' ? formatNumber(field, value) : fitText(String(value), field.length, encode);
      row.set(bytes, field.type === 'N' ? at + field.length - bytes.length : at);
    }
    at += field.length;
  }
  return row;
}

function formatNumber(field: DbfField, value: string | number): Uint8Array {
  const number = Number(value);
  if (!Number.isFinite(number)) throw new Error(`DBF field '${field.name}' needs a number; got '${value}'.`);
  const text = number.toFixed(field.decimals ?? 0);
  if (text.length > field.length) {
    throw new Error(`DBF field '${field.name}' is ${field.length} characters wide; ${text} does not fit.`);
  }
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** The text's bytes, cut at a character boundary to fit the field (as GDAL truncates). */
function fitText(text: string, length: number, encode: (text: string) => Uint8Array): Uint8Array {
  let bytes = encode(text);
  if (bytes.length <= length) return bytes;
  const characters = [...text];
  while (bytes.length > length) {
    characters.pop();
    bytes = encode(characters.join(''));
  }
  return bytes;
}
