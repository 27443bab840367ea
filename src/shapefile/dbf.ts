/** The `.dbf` (dBASE III) header and rows, decoded one row at a time. */
import { BadRequestError, DamagedShapefileError, echo } from '../errors.ts';
import type { TextDecode } from './encoding.ts';

export type AttributeValue = string | number | boolean | null;

/** What a field's values decode to (dates as 'YYYY-MM-DD' text). */
export type AttributeType = 'string' | 'number' | 'boolean' | 'date';

export interface AttributeField {
  /** As the .dbf spells it. */
  name: string;
  type: AttributeType;
}

/** A field as the `.dbf` stores it: with the bytes its value takes in every row, known before any row is read. */
export interface StoredField extends AttributeField {
  width: number;
}

/**
 * The field a request names: the one spelled so, else the first whose name matches it
 * ignoring case (docs/decisions.md: field names are case-insensitive).
 */
export function fieldNamed(fields: readonly AttributeField[], name: string): AttributeField | undefined {
  const folded = name.toLowerCase();
  return fields.find((field) => field.name === name) ?? fields.find((field) => field.name.toLowerCase() === folded);
}

/**
 * The `.dbf` spellings of `requested` (matched as fieldNamed does); for the first that is no
 * field, the error `unknown` makes of it and the list of the fields there are.
 */
export function fieldNamesOf(fields: readonly AttributeField[], requested: readonly string[], unknown: (name: string, known: string) => Error): string[] {
  return requested.map((name) => {
    const field = fieldNamed(fields, name);
    if (field) return field.name;
    throw unknown(name, fields.map((candidate) => candidate.name).join(', ') || 'none');
  });
}

/**
 * The `.dbf` spellings of the fields a request names in `parameter`; for the first that is no
 * field of `shapefile`, a 400 naming the parameter, the name and the fields there are.
 */
export function fieldsNamedIn(shapefile: { name: string; fields: readonly AttributeField[] }, parameter: string, requested: readonly string[]): string[] {
  return fieldNamesOf(shapefile.fields, requested, (name, known) =>
    new BadRequestError(`Parameter '${parameter}': shapefile '${shapefile.name}' has no field '${echo(name)}' (its fields: ${known}).`),
  );
}

/** The values of `names` (as the `.dbf` spells them) in `row`, in that order. */
export function pickFields(row: Readonly<Record<string, AttributeValue>>, names: readonly string[]): Record<string, AttributeValue> {
  return Object.fromEntries(names.map((name) => [name, row[name] ?? null]));
}

/** The type decodeRow gives a column's values, from its dBASE type letter. */
export function attributeType(column: DbfColumn): AttributeType {
  switch (column.type) {
    case 'N':
    case 'F':
      return 'number';
    case 'L':
      return 'boolean';
    case 'D':
      return 'date';
    default:
      return 'string';
  }
}

export interface DbfColumn {
  name: string;
  type: string;
  /** Offset of the value within a row (after the deletion flag). */
  offset: number;
  length: number;
}

export interface DbfHeader {
  recordCount: number;
  /** Where the first row starts. */
  headerBytes: number;
  rowBytes: number;
  /** Language driver id (byte 29). */
  ldid: number;
  columns: DbfColumn[];
}

export const DBF_PREFIX_BYTES = 32;
/** The flag that starts a row marked deleted. */
export const DELETED = 0x2a;

/** What the first 32 bytes tell: the full header length and the LDID. */
export function parseDbfPrefix(prefix: Uint8Array, file: string): { headerBytes: number; ldid: number } {
  if (prefix.length < DBF_PREFIX_BYTES) {
    throw new DamagedShapefileError(file, `the file is ${prefix.length} bytes long, shorter than a dBASE header.`);
  }
  const view = new DataView(prefix.buffer, prefix.byteOffset, DBF_PREFIX_BYTES);
  const headerBytes = view.getUint16(8, true);
  if (headerBytes < DBF_PREFIX_BYTES + 1) {
    throw new DamagedShapefileError(file, `the header length ${headerBytes} is too small for a dBASE file.`);
  }
  return { headerBytes, ldid: view.getUint8(29) };
}

/** Parses the whole header (`bytes` holds `headerBytes` bytes); field names decoded with `decode`. */
export function parseDbfHeader(bytes: Uint8Array, file: string, decode: TextDecode): DbfHeader {
  const { headerBytes, ldid } = parseDbfPrefix(bytes, file);
  if (bytes.length < headerBytes) {
    throw new DamagedShapefileError(file, `the header is cut off (${bytes.length} of ${headerBytes} bytes).`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, headerBytes);
  const rowBytes = view.getUint16(10, true);
  const columns: DbfColumn[] = [];
  let offset = 1;
  for (let at = DBF_PREFIX_BYTES; at + 32 <= headerBytes && bytes[at] !== 0x0d; at += 32) {
    let end = at;
    while (end < at + 11 && bytes[end] !== 0) end++;
    const length = bytes[at + 16];
    columns.push({ name: decode(bytes.subarray(at, end)).trim(), type: String.fromCharCode(bytes[at + 11]), offset, length });
    offset += length;
  }
  if (offset > rowBytes) {
    throw new DamagedShapefileError(file, `its fields need ${offset} bytes a row, but a row is ${rowBytes} bytes.`);
  }
  return { recordCount: view.getUint32(4, true), headerBytes, rowBytes, ldid, columns };
}

export function decodeRow(row: Uint8Array, columns: DbfColumn[], decode: TextDecode): Record<string, AttributeValue> {
  const values: Record<string, AttributeValue> = {};
  for (const column of columns) {
    const bytes = row.subarray(column.offset, column.offset + column.length);
    values[column.name] = decodeValue(column.type, bytes, decode);
  }
  return values;
}

function decodeValue(type: string, bytes: Uint8Array, decode: TextDecode): AttributeValue {
  switch (type) {
    case 'N':
    case 'F':
      return numberValue(bytes);
    case 'L': {
      const flag = ascii(bytes).trim().toUpperCase();
      return flag === 'Y' || flag === 'T' ? true : flag === 'N' || flag === 'F' ? false : null;
    }
    case 'D': {
      // "00000000" is how dBASE writers (GDAL, pyshp) leave a date out: null, as in GDAL's DBFIsValueNULL.
      const date = /^(\d{4})(\d{2})(\d{2})$/.exec(ascii(bytes).trim());
      return date && date[0] !== '00000000' ? `${date[1]}-${date[2]}-${date[3]}` : null;
    }
    default: {
      const text = decode(bytes).trim();
      return text === '' ? null : text;
    }
  }
}

/**
 * A numeric field's value; null when blank or not a number. Plain integers (what ids and
 * counts are) are read from the bytes: through a string, a scan of a million rows spent
 * 300 ms on them.
 */
function numberValue(bytes: Uint8Array): number | null {
  let start = 0;
  let end = bytes.length;
  while (start < end && bytes[start] === SPACE) start++;
  while (end > start && (bytes[end - 1] === SPACE || bytes[end - 1] === 0)) end--;
  if (start === end) return null;
  const negative = bytes[start] === MINUS;
  let value = 0;
  let at = negative ? start + 1 : start;
  for (; at < end && end - start <= MAX_EXACT_DIGITS; at++) {
    const digit = bytes[at] - ZERO;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
  }
  if (at === end && at > (negative ? start + 1 : start)) return negative ? -value : value;
  const number = Number(ascii(bytes.subarray(start, end)));
  return Number.isNaN(number) ? null : number;
}

const SPACE = 0x20;
const MINUS = 0x2d;
const ZERO = 0x30;
/** Integers of up to 15 digits are exact in a double, whatever their digits. */
const MAX_EXACT_DIGITS = 15;

function ascii(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes);
}
