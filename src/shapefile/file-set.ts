/**
 * One version of a shapefile's files on disk (.shp with its .shx, .dbf, .prj, .cpg), open
 * for positional reads on a worker thread. Headers, index, CRS and encoding are read once
 * per version; a feature read touches only its own .shx entry and .shp record.
 */
import { closeSync } from 'node:fs';
import { basename } from 'node:path';
import { BadRequestError, DamagedShapefileError, NotFoundError } from '../errors.ts';
import type { Checkpoint } from '../geometry/simplify.ts';
import type { Lap } from '../stages.ts';
import type { Shape } from '../geometry/shape.ts';
import type { BBox } from '../geometry/types.ts';
import { crsFromPrj } from './crs.ts';
import { decodeRow, parseDbfHeader, parseDbfPrefix, DBF_PREFIX_BYTES, type AttributeValue, type DbfHeader } from './dbf.ts';
import { dbfEncoding, decoderFor, type TextDecode } from './encoding.ts';
import type { FeatureCache } from './feature-cache.ts';
import { openInside, unchangedOnDisk, type OpenedFile } from './open-inside.ts';
import { readAt } from './positional-read.ts';
import { shxIndex, walkIndex, type RecordIndex, type RecordLocation } from './record-index.ts';
import { DELETED, deletedRows, walkRecords, type RawRecord } from './record-scan.ts';
import { HEADER_BYTES, parseMainHeader, shapeTypeName, type MainHeader } from './shp-header.ts';
import { baseShapeType, decodeRecord, delimitRecord, hasZ, RECORD_HEADER_BYTES } from './shp-record.ts';
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
  /** Marks the end of the read and of the decoding, for the per-stage breakdown. */
  lap?: Lap;
}

export interface OpenShapefile {
  readonly name: string;
  /** The shape type GDAL gives the layer: the `.shx` header's, else the `.shp` header's. */
  readonly shapeType: number;
  /** Number of records (from the `.shx` header, or from walking the `.shp` when it is missing). */
  readonly featureCount: number;
  /** Bounding box from the header GDAL takes it from: the `.shx`'s, else the `.shp`'s. */
  readonly bbox: BBox;
  readonly crs: Crs;
  /** Side files that were present but are not used, for the log. */
  readonly problems: string[];
  /**
   * The most vertices record `fid` can hold, from its length in the index alone (no
   * `.shp` read): what a request's budget is checked against before any decoding.
   */
  vertexBound(fid: number): number;
  /**
   * Record `fid` decoded (null for a Null shape); NotFoundError past the last record or
   * when its `.dbf` row is marked deleted.
   */
  readShape(fid: number, options: ReadShapeOptions): Shape | null;
  /** Every record in id order but those whose `.dbf` row is marked deleted, read in large chunks. */
  walk(checkpoint: Checkpoint): Generator<RawRecord>;
  /** The `.dbf` row of feature `fid`, decoded with the file's encoding; NotFoundError when deleted. */
  readAttributes(fid: number): Record<string, AttributeValue>;
  /** Whether `files` names exactly these files, unchanged on disk. */
  isCurrent(files: ShapefileFiles): boolean;
  close(): void;
}

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
  const { index, shapeType, recordType, bbox } = recordIndex(opened, header, paths, checkpoint);
  const problems: string[] = [];

  const prjText = readSideFile(opened.get('prj'));
  const { crs, problem } = crsFromPrj(prjText, bbox);
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
  const { fixedBytes, bytesPerVertex } = vertexLayoutOf(recordType);
  const dbfReader = dbf && 'reader' in dbf ? dbf.reader : undefined;

  const checkFid = (fid: number) => {
    if (Number.isSafeInteger(fid) && fid >= 0 && fid < index.count) return;
    if (index.fault && fid >= index.count) throw new DamagedShapefileError(shpFile, index.fault);
    throw new NotFoundError(`Feature ${fid} does not exist in shapefile '${name}' (it has ${index.count} features).`);
  };

  /**
   * GDAL's GetFeature gives no feature for a record whose .dbf row is marked deleted, and
   * lists none (ogrshapelayer.cpp, shape2ogr.cpp SHPReadOGRFeature): it does not exist.
   */
  const refuseDeleted = (fid: number, row: Uint8Array) => {
    if (row[0] === DELETED) throw new NotFoundError(`Feature ${fid} of shapefile '${name}' is deleted: its .dbf row is marked deleted.`);
  };
  const checkNotDeleted = (fid: number) => {
    if (dbfReader && fid < dbfReader.header.recordCount) refuseDeleted(fid, readAt(dbfReader.fd, rowOffset(dbfReader, fid), 1));
  };

  /** The record's content, delimited by the index as GDAL delimits it, and what to say when it is too short. */
  const readRecord = (fid: number) => {
    const location = index.locate(fid);
    const read = readAt(shp.fd, location.offset, RECORD_HEADER_BYTES + location.contentBytes);
    const { content, ownBytes } = delimitRecord(read, location, fid, shpFile, shpBytes);
    return { content, tooShort: ownBytes > content.byteLength ? shortenedByIndex(index.file, fid, location, ownBytes) : undefined };
  };

  return {
    name,
    shapeType,
    featureCount: index.count,
    bbox,
    crs,
    problems,
    vertexBound(fid) {
      checkFid(fid);
      const { contentBytes } = index.locate(fid);
      if (bytesPerVertex === 0) return 1;
      return Math.max(0, Math.floor((contentBytes - fixedBytes) / bytesPerVertex));
    },
    readShape(fid, options) {
      checkFid(fid);
      if (shapeType === ShapeType.MultiPatch) {
        throw new BadRequestError(`Shapefile '${name}' has shape type MultiPatch, which shapeshot cannot draw.`);
      }
      const cached = options.useCache ? cache?.get(versionKey, fid) : undefined;
      if (cached !== undefined) return cached;
      checkNotDeleted(fid);
      const { content, tooShort } = readRecord(fid);
      options.lap?.('read');
      const shape = decodeRecord(content, recordType, fid, shpFile, { ...options, tooShort });
      options.lap?.('decode');
      if (options.useCache) cache?.set(versionKey, fid, shape);
      return shape;
    },
    *walk(walkCheckpoint) {
      const deleted = dbfReader
        ? deletedRows(dbfReader.fd, dbfReader.header.headerBytes, dbfReader.header.rowBytes, dbfReader.header.recordCount)
        : () => false;
      for (const record of walkRecords(shp.fd, shpBytes, index.locations(walkCheckpoint), shpFile, walkCheckpoint)) {
        if (!deleted(record.fid)) yield record;
      }
    },
    readAttributes(fid) {
      checkFid(fid);
      if (dbf === undefined) return {};
      if ('error' in dbf) throw dbf.error;
      const { reader } = dbf;
      const { header: dbfHeader, file } = reader;
      // GDAL gives no feature at all past the last row (a departure: our geometry stays readable).
      if (fid >= dbfHeader.recordCount) {
        throw new DamagedShapefileError(file, `it has ${dbfHeader.recordCount} rows, so feature ${fid} has no attributes.`);
      }
      const row = readAt(reader.fd, rowOffset(reader, fid), dbfHeader.rowBytes);
      if (row.length < dbfHeader.rowBytes) throw new DamagedShapefileError(file, `row ${fid} is cut off at the end of the file.`);
      refuseDeleted(fid, row);
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

/** Blames the index for a record it cut shorter than the .shp record's own header says. */
function shortenedByIndex(indexFile: string, fid: number, { offset, contentBytes }: RecordLocation, ownBytes: number) {
  return (needed: number) =>
    new DamagedShapefileError(
      indexFile,
      `it lists record ${fid} at byte ${offset} with ${contentBytes} bytes, fewer than the record needs (${needed}), ` +
        `but the .shp record there says ${ownBytes}.`,
    );
}

/**
 * What a record of `recordType` holds besides its vertices (shape type, box and counts), and
 * the bytes each vertex takes at the least: x and y, plus z when the file promises Z (its
 * records must then have it). An M block is optional in every type, and a Z record in a file
 * without Z only takes more bytes a vertex, so neither is counted. A point has one vertex
 * whatever its length (bytesPerVertex 0).
 */
function vertexLayoutOf(recordType: number): { fixedBytes: number; bytesPerVertex: number } {
  const base = baseShapeType(recordType);
  if (base === ShapeType.Point) return { fixedBytes: 0, bytesPerVertex: 0 };
  return { fixedBytes: base === ShapeType.MultiPoint ? 40 : 44, bytesPerVertex: hasZ(recordType) ? 24 : 16 };
}

interface FileIndex {
  index: RecordIndex;
  /** GDAL's layer type: the .shx header's (shpopen.c SHPOpenLL reads the type from the .shx). */
  shapeType: number;
  /** The type every record is promised to be: with Z only when both headers say Z. */
  recordType: number;
  /** GDAL's layer extent: the .shx header's box, as SHPOpenLL reads it. */
  bbox: BBox;
}

/**
 * The .shx when there is one, else a walk over the .shp. Headers that disagree on Z or M
 * read as GDAL reads them; headers of different base types (a PolyLine .shp with a Polygon
 * .shx) are damage, a departure from GDAL, which would hand out the records' lines in a
 * polygon layer.
 */
function recordIndex(opened: Map<FileKind, OpenedFile>, shpHeader: MainHeader, paths: FileSetPaths, checkpoint: Checkpoint): FileIndex {
  const shp = opened.get('shp')!;
  const shx = opened.get('shx');
  const { shapeType, bbox } = shpHeader;
  if (!shx) {
    const index = walkIndex(shp.fd, shp.stats.size, shpHeader, basename(paths.shp), checkpoint);
    return { index, shapeType, recordType: shapeType, bbox };
  }
  const shxFile = basename(paths.shx!);
  const shxHeader = parseMainHeader(readAt(shx.fd, 0, HEADER_BYTES), shxFile);
  if (baseShapeType(shxHeader.shapeType) !== baseShapeType(shapeType)) {
    throw new DamagedShapefileError(
      shxFile,
      `its header says shape type ${shapeTypeName(shxHeader.shapeType)}, the .shp's says ${shapeTypeName(shapeType)}.`,
    );
  }
  return {
    index: shxIndex(shx.fd, shx.stats.size, shxHeader, shxFile),
    shapeType: shxHeader.shapeType,
    recordType: hasZ(shxHeader.shapeType) ? shapeType : shxHeader.shapeType,
    bbox: shxHeader.bbox,
  };
}

function rowOffset({ header }: DbfReader, row: number): number {
  return header.headerBytes + row * header.rowBytes;
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
