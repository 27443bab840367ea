/**
 * Data the embedded basemap derives from a package's file (world-atlas's topologies: their
 * compact form, the costliest shapes projected), kept in node_modules/.cache/shapeshot/ beside
 * the packages, as the server's own bundles are (src/node-bundle.js), and read back while the
 * file it was derived from is unchanged: a cold process then reads in milliseconds what took
 * it hundreds (`BENCH_ONLY=cold npm run bench`). Where that folder cannot be written, the data
 * is derived again by every process.
 *
 * A file holds a line of JSON (what the data is, the version of the code that derived it, and
 * the source's size and time it was derived from), then typed arrays, each from a multiple of 8 bytes, in this machine's byte order
 * (the file never leaves it).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Raised when the layout changes, so that files written before are derived again. */
const FORMAT = 1;

export type DerivedArray = Float64Array | Uint32Array;

export interface Derived<Meta> {
  meta: Meta;
  arrays: DerivedArray[];
}

interface Header {
  format: number;
  /** The version of the code that derived it: raised whenever that code derives otherwise. */
  derivation: string;
  source: string;
  stamp: string;
  meta: unknown;
  arrays: { type: 'f64' | 'u32'; length: number }[];
}

/**
 * What was kept as `name` for `source` (a file of an installed package) by the code whose
 * version is `derivation`, if it still holds. What it holds is the caller's to check: a file
 * on disk is not to be trusted to have the shape it should.
 */
export function readDerived(source: string, name: string, derivation: string): Derived<unknown> | undefined {
  try {
    const bytes = readFileSync(derivedFile(source, name));
    const newline = bytes.indexOf(10);
    const header = JSON.parse(bytes.subarray(0, newline).toString('utf8')) as Header;
    if (header.format !== FORMAT || header.derivation !== derivation || header.source !== source || header.stamp !== stampOf(source)) return undefined;
    // Views of the file's own memory when it is aligned for them (a large file's is), else of a copy.
    const aligned = bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes);
    let offset = aligned8(newline + 1);
    const arrays = header.arrays.map(({ type, length }) => {
      const array = type === 'f64' ? new Float64Array(aligned.buffer, aligned.byteOffset + offset, length) : new Uint32Array(aligned.buffer, aligned.byteOffset + offset, length);
      offset = aligned8(offset + array.byteLength);
      return array;
    });
    return offset === aligned8(bytes.length) ? { meta: header.meta, arrays } : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `meta` and `arrays` as `name` for `source`; quietly does not where the folder cannot be written. */
export function keepDerived(source: string, name: string, derivation: string, meta: unknown, arrays: readonly DerivedArray[]): void {
  const header: Header = {
    format: FORMAT,
    derivation,
    source,
    stamp: stampOf(source),
    meta,
    arrays: arrays.map((array) => ({ type: array instanceof Float64Array ? 'f64' : 'u32', length: array.length })),
  };
  const line = Buffer.from(`${JSON.stringify(header)}\n`);
  const offsets: number[] = [];
  let end = aligned8(line.length);
  for (const array of arrays) {
    offsets.push(end);
    end = aligned8(end + array.byteLength);
  }
  const file = Buffer.alloc(end);
  line.copy(file);
  arrays.forEach((array, index) => Buffer.from(array.buffer, array.byteOffset, array.byteLength).copy(file, offsets[index]));
  const target = derivedFile(source, name);
  // Written aside and renamed into place: two workers, or two servers, may keep it at once.
  const aside = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(aside, file);
    renameSync(aside, target);
  } catch {
    // A read-only installation: derived again next time; nothing is left aside.
    if (existsSync(aside)) rmSync(aside);
  }
}

/** node_modules/.cache/shapeshot/, beside the package folder `source` is in. */
function derivedFile(source: string, name: string): string {
  return join(dirname(dirname(source)), '.cache', 'shapeshot', `${basename(source)}.${name}`);
}

function stampOf(file: string): string {
  const { size, mtimeMs } = statSync(file);
  return `${size}:${mtimeMs}`;
}

function aligned8(offset: number): number {
  return Math.ceil(offset / 8) * 8;
}
