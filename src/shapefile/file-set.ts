/**
 * One version of a shapefile's files on disk (.shp with its .shx, .dbf, .prj, .cpg), open
 * for positional reads on a worker thread. Headers, index, CRS and encoding are read once
 * per version; a feature read touches only its own .shx entry and .shp record.
 */
import { closeSync } from 'node:fs';
import { basename } from 'node:path';
import { BadRequestError, DamagedShapefileError, NotFoundError } from '../errors.ts';
import type { Checkpoint } from '../geometry/simplify.ts';
import type { Shape } from '../geometry/shape.ts';
import type { BBox } from '../geometry/types.ts';
import { crsFromPrj } from './crs.ts';
import { decodeRow, parseDbfHeader, parseDbfPrefix, DBF_PREFIX_BYTES, type AttributeValue, type DbfHeader } from './dbf.ts';
import { dbfEncoding, decoderFor, type TextDecode } from './encoding.ts';
import type { FeatureCache } from './feature-cache.ts';
import { openInside, unchangedOnDisk, type OpenedFile } from './open-inside.ts';
import { readAt, readInto } from './positional-read.ts';
import { shxIndex, walkIndex, type RecordIndex } from './record-index.ts';
import { walkRecords, type RawRecord } from './record-scan.ts';
import { HEADER_BYTES, parseMainHeader, shapeTypeName } from './shp-header.ts';
import { baseShapeType, decodeRecord, RECORD_HEADER_BYTES } from './shp-record.ts';
import { ShapeType, type Crs } from './types.ts';

/** Absolute paths of the files of one shapefile; only the .shp is required. */
export interface FileSetPaths {
  shp: string;
  shx?: string;
  dbf?: string;
  prj?: string;
  cpg?: string;
}

/** A shapefile as the data folder lists it: what a job names. */
export interface ShapefileFiles {
  /** The .shp name without extension, as spelled on disk. */
  name: string;
  paths: FileSetPaths;
}

export interface ReadShapeOptions {
  useCache: boolean;
  maxRings: number;
  checkpoint: Checkpoint;
}

export interface OpenShapefile {
  readonly name: string;
  readonly shapeType: number;
  /** Number of records (from the `.shx`, or from walking the `.shp` when it is missing). */
  readonly featureCount: number;
  /** Bounding box from the `.shp` header. */
  readonly bbox: BBox;
  readonly crs: Crs;
  /** Side files that were present but are not used, for the log. */
  readonly problems: string[];
  /**
   * The most vertices record `fid` can hold, from its length in the index alone (no
   * `.shp` read): what a request's budget is checked against before any decoding.
   */
  vertexBound(fid: number): number;
  /** Record `fid` decoded (null for a Null shape); NotFoundError past the last record. */
  readShape(fid: number, options: ReadShapeOptions): Shape | null;
  /** Every record in file order, read sequentially in large chunks. */
  walk(checkpoint: Checkpoint): Generator<RawRecord>;
  /** The `.dbf` row of feature `fid`, decoded with the file's encoding. */
  readAttributes(fid: number): Record<string, AttributeValue>;
  /** Whether `files` names exactly these files, unchanged on disk. */
  isCurrent(files: ShapefileFiles): boolean;
  close(): void;
}

/** A record longer than this is taken as a damaged length, not read into memory. */
const MAX_RECORD_BYTES = 256 * 1024 * 1024;
const MAX_SIDE_FILE_BYTES = 64 * 1024;
const FILE_KINDS = ['shp', 'shx', 'dbf', 'prj', 'cpg'] as const;
type FileKind = (typeof FILE_KINDS)[number];

/**
 * Opens the files of `files` that lie inside `realRoot` (the data folder's real path); a
 * side file outside it counts as absent. undefined when the `.shp` itself is gone or outside.
 */
export function openShapefile(
  files: ShapefileFiles,
  realRoot: string,
  cache: FeatureCache | undefined,
  checkpoint: Checkpoint,
): OpenShapefile | undefined {
  const opened = new Map<FileKind, OpenedFile>();
  const closeAll = () => {
    for (const { fd } of opened.values()) closeSync(fd);
  };
  try {
    for (const kind of FILE_KINDS) {
      const path = files.paths[kind];
      const file = path === undefined ? undefined : openInside(path, realRoot);
      if (file) opened.set(kind, file);
      else if (kind === 'shp') return undefined;
    }
    return readFileSet(files, opened, cache, checkpoint, closeAll);
  } catch (error) {
    closeAll();
    throw error;
  }
}

function readFileSet(
  files: ShapefileFiles,
  opened: Map<FileKind, OpenedFile>,
  cache: FeatureCache | undefined,
  checkpoint: Checkpoint,
  closeAll: () => void,
): OpenShapefile {
  const { name, paths } = files;
  const shp = opened.get('shp')!;
  const shpFile = basename(paths.shp);
  const shpBytes = shp.stats.size;
  const header = parseMainHeader(readAt(shp.fd, 0, HEADER_BYTES), shpFile);
  const index = recordIndex(opened, header.shapeType, paths, checkpoint);
  const problems: string[] = [];

  const prjText = readSideFile(opened.get('prj'));
  const { crs, problem } = crsFromPrj(prjText, header.bbox);
  if (problem && paths.prj) problems.push(`${basename(paths.prj)} is unusable, read as if absent: ${problem}`);

  // A damaged .dbf only fails attribute reads; geometry stays readable.
  let dbf: { reader: DbfReader } | { error: unknown } | undefined;
  const dbfFile = opened.get('dbf');
  if (dbfFile) {
    try {
      dbf = { reader: openDbf(dbfFile, basename(paths.dbf!), opened.get('cpg'), paths.cpg, problems) };
    } catch (error) {
      dbf = { error };
    }
  }

  const versionKey = [...opened].map(([kind, { stats }]) => `${kind}:${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}`).join('|');
  const { fixedBytes, bytesPerVertex } = vertexLayoutOf(header.shapeType);

  const checkFid = (fid: number) => {
    if (Number.isSafeInteger(fid) && fid >= 0 && fid < index.count) return;
    if (index.fault && fid >= index.count) throw new DamagedShapefileError(shpFile, index.fault);
    throw new NotFoundError(`Feature ${fid} does not exist in shapefile '${name}' (it has ${index.count} features).`);
  };

  /** Where record `fid` lies, checked to lie within the `.shp`. */
  const locate = (fid: number) => {
    const { offset, contentBytes } = index.locate(fid);
    if (offset < HEADER_BYTES || contentBytes < 0 || contentBytes > MAX_RECORD_BYTES) {
      throw new DamagedShapefileError(index.file, `record ${fid} is listed at byte ${offset} with ${contentBytes} bytes, which cannot be right.`);
    }
    const recordBytes = RECORD_HEADER_BYTES + contentBytes;
    if (offset + recordBytes > shpBytes) {
      throw new DamagedShapefileError(
        shpFile,
        `record ${fid} (${recordBytes} bytes from byte ${offset}) runs past the end of the ${shpBytes}-byte file.`,
      );
    }
    return { offset, contentBytes, recordBytes };
  };

  /** The record's content, from its shape type on, checked against the index. */
  const readContent = (fid: number): DataView => {
    const { offset, contentBytes, recordBytes } = locate(fid);
    const buffer = new Uint8Array(recordBytes);
    if (readInto(shp.fd, buffer, 0, recordBytes, offset) < recordBytes) {
      throw new DamagedShapefileError(shpFile, `record ${fid} is cut off at the end of the file.`);
    }
    const view = new DataView(buffer.buffer);
    const declared = view.getInt32(4) * 2;
    if (declared !== contentBytes) {
      throw new DamagedShapefileError(
        index.file,
        `it lists record ${fid} at byte ${offset} with ${contentBytes} bytes, but the .shp record there says ${declared}.`,
      );
    }
    return new DataView(buffer.buffer, RECORD_HEADER_BYTES, contentBytes);
  };

  return {
    name,
    shapeType: header.shapeType,
    featureCount: index.count,
    bbox: header.bbox,
    crs,
    problems,
    vertexBound(fid) {
      checkFid(fid);
      const { contentBytes } = locate(fid);
      if (bytesPerVertex === 0) return 1;
      return Math.max(0, Math.floor((contentBytes - fixedBytes) / bytesPerVertex));
    },
    readShape(fid, options) {
      checkFid(fid);
      if (header.shapeType === ShapeType.MultiPatch) {
        throw new BadRequestError(`Shapefile '${name}' has shape type MultiPatch, which shapeshot cannot draw.`);
      }
      const cached = options.useCache ? cache?.get(versionKey, fid) : undefined;
      if (cached !== undefined) return cached;
      const shape = decodeRecord(readContent(fid), header.shapeType, fid, shpFile, options);
      if (options.useCache) cache?.set(versionKey, fid, shape);
      return shape;
    },
    walk: (walkCheckpoint) => walkRecords(shp.fd, shpBytes, index.count, shpFile, walkCheckpoint),
    readAttributes(fid) {
      checkFid(fid);
      if (dbf === undefined) return {};
      if ('error' in dbf) throw dbf.error;
      const { reader } = dbf;
      const { header: dbfHeader, file } = reader;
      if (fid >= dbfHeader.recordCount) {
        throw new DamagedShapefileError(file, `it has ${dbfHeader.recordCount} rows, so feature ${fid} has no attributes.`);
      }
      const row = readAt(reader.fd, dbfHeader.headerBytes + fid * dbfHeader.rowBytes, dbfHeader.rowBytes);
      if (row.length < dbfHeader.rowBytes) throw new DamagedShapefileError(file, `row ${fid} is cut off at the end of the file.`);
      return decodeRow(row, dbfHeader.columns, reader.decode);
    },
    isCurrent(current) {
      return FILE_KINDS.every((kind) => {
        const path = current.paths[kind];
        const file = opened.get(kind);
        if (path !== paths[kind]) return false;
        return path === undefined || file === undefined ? true : unchangedOnDisk(path, file.stats);
      });
    },
    close: closeAll,
  };
}

/**
 * What a record of `shapeType` holds besides its vertices (shape type, box and counts), and
 * the bytes each vertex takes at the least: x and y, plus z for Z types and m for M types
 * (a Z record's M block is optional, so it is not counted). A point has one vertex
 * whatever its length (bytesPerVertex 0).
 */
function vertexLayoutOf(shapeType: number): { fixedBytes: number; bytesPerVertex: number } {
  const base = baseShapeType(shapeType);
  if (base === ShapeType.Point) return { fixedBytes: 0, bytesPerVertex: 0 };
  return { fixedBytes: base === ShapeType.MultiPoint ? 40 : 44, bytesPerVertex: shapeType === base ? 16 : 24 };
}

/** The .shx when there is one (checked against the .shp), else a walk over the .shp. */
function recordIndex(opened: Map<FileKind, OpenedFile>, shapeType: number, paths: FileSetPaths, checkpoint: Checkpoint): RecordIndex {
  const shp = opened.get('shp')!;
  const shx = opened.get('shx');
  if (!shx) return walkIndex(shp.fd, shp.stats.size, basename(paths.shp), checkpoint);
  const shxFile = basename(paths.shx!);
  const shxHeader = parseMainHeader(readAt(shx.fd, 0, HEADER_BYTES), shxFile);
  if (shxHeader.shapeType !== shapeType) {
    throw new DamagedShapefileError(
      shxFile,
      `its header says shape type ${shapeTypeName(shxHeader.shapeType)}, the .shp's says ${shapeTypeName(shapeType)}.`,
    );
  }
  return shxIndex(shx.fd, shx.stats.size, shxFile);
}

interface DbfReader {
  fd: number;
  file: string;
  header: DbfHeader;
  decode: TextDecode;
}

function openDbf(dbf: OpenedFile, file: string, cpg: OpenedFile | undefined, cpgPath: string | undefined, problems: string[]): DbfReader {
  const { headerBytes, ldid } = parseDbfPrefix(readAt(dbf.fd, 0, DBF_PREFIX_BYTES), file);
  const cpgText = readSideFile(cpg);
  const encoding = dbfEncoding(cpgText, ldid);
  if (cpgText !== undefined && encoding.source !== 'cpg') {
    problems.push(`${basename(cpgPath!)} names unknown encoding '${cpgText.trim()}'; the .dbf is read as ${encoding.name}.`);
  }
  const decode = decoderFor(encoding.name);
  const header = parseDbfHeader(readAt(dbf.fd, 0, headerBytes), file, decode);
  return { fd: dbf.fd, file, header, decode };
}

/** A .prj or .cpg: small text. */
function readSideFile(file: OpenedFile | undefined): string | undefined {
  return file === undefined ? undefined : new TextDecoder().decode(readAt(file.fd, 0, MAX_SIDE_FILE_BYTES));
}
