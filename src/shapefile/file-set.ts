/**
 * One version of a shapefile's files on disk (.shp with its .shx, .dbf, .prj, .cpg), open
 * for positional reads. Headers, CRS and encoding are read once per version; a feature
 * read touches only its own .shx entry, .shp record and .dbf row.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { BadRequestError, DamagedShapefileError, NotFoundError } from '../errors.ts';
import type { Geometry } from '../geometry/types.ts';
import { crsFromPrj } from './crs.ts';
import { decodeRow, parseDbfHeader, parseDbfPrefix, DBF_PREFIX_BYTES, type DbfHeader } from './dbf.ts';
import { dbfEncoding, decoderFor, type TextDecode } from './encoding.ts';
import type { FeatureCache } from './feature-cache.ts';
import { createFileLifetime } from './file-lifetime.ts';
import { readAt, readInto } from './positional-read.ts';
import { scanIndex, shxIndex, type RecordIndex } from './record-index.ts';
import { walkRecords } from './record-scan.ts';
import { HEADER_BYTES, parseMainHeader, shapeTypeName } from './shp-header.ts';
import { decodeRecord, RECORD_HEADER_BYTES } from './shp-record.ts';
import { ShapeType, type Shapefile } from './types.ts';

/** Absolute paths of the files of one shapefile; only the .shp is required. */
export interface FileSetPaths {
  shp: string;
  shx?: string;
  dbf?: string;
  prj?: string;
  cpg?: string;
}

/** Sizes from the stat that fixed this version. */
export interface FileSetSizes {
  shp: number;
  shx?: number;
}

export interface OpenFileSet {
  readonly shapefile: Shapefile;
  /** Memory held besides the cache (a rebuilt index). */
  readonly bytes: number;
  /** Side files that were present but unusable, for the log. */
  readonly problems: { file: string; problem: string }[];
  /** Closes the files once reads in flight are done, after a grace period for requests that hold this version. */
  retire(): void;
  close(): Promise<void>;
}

/** How long a replaced version stays readable for requests that opened it just before. */
const RETIRE_GRACE_MS = 5_000;
/** A record longer than this is taken as a damaged length, not read into memory. */
const MAX_RECORD_BYTES = 256 * 1024 * 1024;
const MAX_SIDE_FILE_BYTES = 64 * 1024;

interface DbfReader {
  handle: FileHandle;
  header: DbfHeader;
  decode: TextDecode;
}

export async function openFileSet(
  name: string,
  paths: FileSetPaths,
  sizes: FileSetSizes,
  cache: FeatureCache | undefined,
  versionKey: string,
): Promise<OpenFileSet> {
  const handles: FileHandle[] = [];
  const openFile = async (path: string) => {
    const handle = await open(path, 'r');
    handles.push(handle);
    return handle;
  };
  const closeAll = () => Promise.allSettled(handles.map((handle) => handle.close())).then(() => undefined);
  try {
    return await readFileSet(name, paths, sizes, cache, versionKey, openFile, closeAll);
  } catch (error) {
    await closeAll();
    throw error;
  }
}

async function readFileSet(
  name: string,
  paths: FileSetPaths,
  sizes: FileSetSizes,
  cache: FeatureCache | undefined,
  versionKey: string,
  openFile: (path: string) => Promise<FileHandle>,
  closeAll: () => Promise<void>,
): Promise<OpenFileSet> {
  const shpFile = basename(paths.shp);
  const shp = await openFile(paths.shp);
  const header = parseMainHeader(await readAt(shp, 0, HEADER_BYTES), shpFile);
  const index = await recordIndex(shp, header.shapeType, paths, sizes, openFile);
  const problems: { file: string; problem: string }[] = [];

  const prjText = paths.prj === undefined ? undefined : await readSideFile(paths.prj);
  const { crs, problem } = crsFromPrj(prjText, header.bbox);
  if (problem && paths.prj) problems.push({ file: basename(paths.prj), problem: `unusable, read as if absent: ${problem}` });

  // A damaged .dbf only fails attribute reads; geometry stays readable.
  const dbf =
    paths.dbf === undefined
      ? undefined
      : await openDbf(paths.dbf, paths.cpg, openFile, problems).then(
          (reader) => ({ reader }),
          (error: unknown) => ({ error }),
        );

  const lifetime = createFileLifetime(name, closeAll, RETIRE_GRACE_MS);

  const checkFid = (fid: number) => {
    if (Number.isSafeInteger(fid) && fid >= 0 && fid < index.count) return;
    if (index.fault && fid >= index.count) throw new DamagedShapefileError(shpFile, index.fault);
    throw new NotFoundError(`Feature ${fid} does not exist in shapefile '${name}' (it has ${index.count} features).`);
  };

  const readRecord = async (fid: number): Promise<Geometry | null> => {
    const { offset, contentBytes } = await index.locate(fid);
    if (offset < HEADER_BYTES || contentBytes < 0 || contentBytes > MAX_RECORD_BYTES) {
      throw new DamagedShapefileError(index.file, `record ${fid} is listed at byte ${offset} with ${contentBytes} bytes, which cannot be right.`);
    }
    const recordBytes = RECORD_HEADER_BYTES + contentBytes;
    if (offset + recordBytes > sizes.shp) {
      throw new DamagedShapefileError(
        shpFile,
        `record ${fid} (${recordBytes} bytes from byte ${offset}) runs past the end of the ${sizes.shp}-byte file.`,
      );
    }
    const buffer = new Uint8Array(HEADER_BYTES + recordBytes);
    buffer.set(header.bytes);
    const read = await readInto(shp, buffer, HEADER_BYTES, recordBytes, offset);
    if (read < recordBytes) throw new DamagedShapefileError(shpFile, `record ${fid} is cut off at the end of the file.`);
    const declared = new DataView(buffer.buffer, HEADER_BYTES + 4, 4).getInt32(0) * 2;
    if (declared !== contentBytes) {
      throw new DamagedShapefileError(
        index.file,
        `it lists record ${fid} at byte ${offset} with ${contentBytes} bytes, but the .shp record there says ${declared}.`,
      );
    }
    return decodeRecord(buffer, header.shapeType, fid, shpFile);
  };

  const shapefile: Shapefile = {
    name,
    shapeType: header.shapeType,
    featureCount: index.count,
    bbox: header.bbox,
    crs,
    async readGeometry(fid, { useCache }) {
      checkFid(fid);
      if (header.shapeType === ShapeType.MultiPatch) {
        throw new BadRequestError(`Shapefile '${name}' has shape type MultiPatch, which shapeshot cannot draw.`);
      }
      const cached = useCache ? cache?.get(versionKey, fid) : undefined;
      if (cached !== undefined) return cached;
      const geometry = await lifetime.use(() => readRecord(fid));
      if (useCache) cache?.set(versionKey, fid, geometry);
      return geometry;
    },
    async *scan() {
      if (header.shapeType === ShapeType.MultiPatch) {
        throw new BadRequestError(`Shapefile '${name}' has shape type MultiPatch, which shapeshot cannot draw.`);
      }
      const read = (position: number, length: number) => lifetime.use(() => readAt(shp, position, length));
      for await (const record of walkRecords(read, sizes.shp, index.count, shpFile)) {
        yield {
          fid: record.fid,
          bbox: record.bbox,
          pointCount: record.pointCount,
          geometry: () => decodeRecord(withHeader(header.bytes, record.bytes), header.shapeType, record.fid, shpFile),
        };
      }
    },
    async readAttributes(fid) {
      checkFid(fid);
      if (dbf === undefined) return {};
      if ('error' in dbf) throw dbf.error;
      const { reader } = dbf;
      const dbfHeader = reader.header;
      const dbfFile = basename(paths.dbf!);
      if (fid >= dbfHeader.recordCount) {
        throw new DamagedShapefileError(dbfFile, `it has ${dbfHeader.recordCount} rows, so feature ${fid} has no attributes.`);
      }
      const row = await lifetime.use(() => readAt(reader.handle, dbfHeader.headerBytes + fid * dbfHeader.rowBytes, dbfHeader.rowBytes));
      if (row.length < dbfHeader.rowBytes) throw new DamagedShapefileError(dbfFile, `row ${fid} is cut off at the end of the file.`);
      return decodeRow(row, dbfHeader.columns, reader.decode);
    },
  };

  return {
    shapefile,
    bytes: index.bytes,
    problems,
    retire: lifetime.retire,
    close: lifetime.close,
  };
}

/** The 100-byte file header followed by one record: what decodeRecord reads. */
function withHeader(headerBytes: Uint8Array, record: Uint8Array): Uint8Array {
  const buffer = new Uint8Array(HEADER_BYTES + record.length);
  buffer.set(headerBytes);
  buffer.set(record, HEADER_BYTES);
  return buffer;
}

/** The .shx when there is one (checked against the .shp), else a scan of the .shp. */
async function recordIndex(
  shp: FileHandle,
  shapeType: number,
  paths: FileSetPaths,
  sizes: FileSetSizes,
  openFile: (path: string) => Promise<FileHandle>,
): Promise<RecordIndex> {
  if (paths.shx === undefined || sizes.shx === undefined) return scanIndex(shp, sizes.shp, basename(paths.shp));
  const shxFile = basename(paths.shx);
  const shx = await openFile(paths.shx);
  const shxHeader = parseMainHeader(await readAt(shx, 0, HEADER_BYTES), shxFile);
  if (shxHeader.shapeType !== shapeType) {
    throw new DamagedShapefileError(
      shxFile,
      `its header says shape type ${shapeTypeName(shxHeader.shapeType)}, the .shp's says ${shapeTypeName(shapeType)}.`,
    );
  }
  return shxIndex(shx, sizes.shx, shxFile);
}

async function openDbf(
  dbfPath: string,
  cpgPath: string | undefined,
  openFile: (path: string) => Promise<FileHandle>,
  problems: { file: string; problem: string }[],
): Promise<DbfReader> {
  const file = basename(dbfPath);
  const handle = await openFile(dbfPath);
  const { headerBytes, ldid } = parseDbfPrefix(await readAt(handle, 0, DBF_PREFIX_BYTES), file);
  const cpgText = cpgPath === undefined ? undefined : await readSideFile(cpgPath);
  const encoding = dbfEncoding(cpgText, ldid);
  if (cpgText !== undefined && encoding.source !== 'cpg') {
    problems.push({ file: basename(cpgPath!), problem: `unknown encoding '${cpgText.trim()}'; reading the .dbf as ${encoding.name}.` });
  }
  const decode = decoderFor(encoding.name);
  const header = parseDbfHeader(await readAt(handle, 0, headerBytes), file, decode);
  return { handle, header, decode };
}

/** A .prj or .cpg: small text; one that vanished in a race counts as absent. */
async function readSideFile(path: string): Promise<string | undefined> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    return new TextDecoder().decode(await readAt(handle, 0, MAX_SIDE_FILE_BYTES));
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}
