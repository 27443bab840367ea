/**
 * One version of a shapefile's files (.shp with its .shx, .dbf, .prj, .cpg), open for
 * positional reads on a worker thread: the readers of each file (shp-file.ts, shx-file.ts,
 * dbf-file.ts) made into one layer. Headers, index, CRS and encoding are read once per
 * version; a feature read touches only its own .shx entry and .shp record. The files are read
 * through ByteReaders: those of a local folder here (file descriptors), those of a remote
 * source by job-context/remote-shapefiles.ts, on the same layer (shapefileLayer).
 */
import { closeSync } from 'node:fs';
import { basename } from 'node:path';
import { BadRequestError, DamagedShapefileError, NotFoundError } from '../errors.ts';
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import type { Lap } from '../stages.ts';
import type { Shape } from '../geometry/shape.ts';
import type { BBox } from '../geometry/types.ts';
import type { SourceStat } from '../plugin-contract/data-source-plugin.ts';
import { alsoWanted, type ShapefilePart } from './byte-reader.ts';
import { crsFromPrj } from './crs.ts';
import { FILE_KINDS, type FileKind } from './file-kinds.ts';
import type { AttributeValue, StoredField } from './dbf.ts';
import { openDbf, WITHOUT_DBF } from './dbf-file.ts';
import type { FeatureCache } from './feature-cache.ts';
import { openInside, unchangedOnDisk, type OpenedFile } from './open-inside.ts';
import { descriptorReader, readSideFile } from './positional-read.ts';
import { openShp, type RawRecord } from './shp-file.ts';
import { decodeRecord, drawsGeometry, maxVertices, recordFacts, RECORD_COUNTS_BYTES } from './shp-record.ts';
import { shxLayer } from './shx-file.ts';
import { ShapeType, type Crs } from './types.ts';

/**
 * Where the files of one shapefile are; only the .shp is required. Absolute paths in a local
 * folder; the names the source lists for a remote one.
 */
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
  /**
   * A remote source's size and version of each file, as the main thread last saw them: the
   * version the workers read (a file changed since is read again at its new version).
   * Absent for a local folder, whose workers look at the files themselves.
   */
  versions?: Partial<Record<FileKind, SourceStat>>;
  /**
   * A remote source's opening bytes of each file at those versions (shapefile/opening-bytes.ts),
   * fetched once by the main thread for every worker; a file left out, or stated again at
   * another version, is fetched by the worker.
   */
  opening?: Partial<Record<FileKind, Uint8Array>>;
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
  /** Which version of the files on disk this is (device, inode, size, modification of each): equal when reopened unchanged. */
  readonly version: string;
  /*
   * The next three take records `fids` (ascending, no repeats) and read what they need of
   * nearby records together.
   */
  /**
   * The most vertices each record can hold, from its length in the index alone (no `.shp`
   * read): what a request's budget is checked against before any decoding.
   */
  vertexBounds(fids: readonly number[]): Float64Array;
  /** Whether each record has something to draw (not a null shape, not without points), 1 or 0, from its first bytes. */
  drawable(fids: readonly number[]): Uint8Array;
  /**
   * The most separate pieces each record can be drawn as (parts, rings, a multipoint's
   * points; one for a point), from its first bytes and its length, before it is decoded:
   * what a request's hot spots are counted against.
   */
  partBounds(fids: readonly number[]): Float64Array;
  /**
   * Record `fid` decoded (null for a Null shape); NotFoundError past the last record or
   * when its `.dbf` row is marked deleted.
   */
  readShape(fid: number, options: ReadShapeOptions): Shape | null;
  /**
   * readShape for each of `fids` (ascending, no repeats), the records and deletion flags not
   * in the feature cache read in merged runs: what a picture of many features reads.
   */
  readShapes(fids: readonly number[], options: ReadShapeOptions): (Shape | null)[];
  /** Every record in id order but those whose `.dbf` row is marked deleted, read in large chunks; a record's `content` is valid until the next is taken. */
  walk(checkpoint: Checkpoint): Generator<RawRecord>;
  /** The `.dbf` row of feature `fid`, decoded with the file's encoding; NotFoundError when deleted. */
  readAttributes(fid: number): Record<string, AttributeValue>;
  /** The `.dbf` fields, in the file's order (none without a `.dbf`). */
  readonly fields: readonly StoredField[];
  /**
   * Every feature whose `.dbf` row is not marked deleted, in id order, with the values of
   * `fieldNames` only: one pass over the `.dbf`, no geometry read. Features past the
   * `.dbf`'s last row have no attributes and are not listed.
   */
  attributeRows(fieldNames: readonly string[], checkpoint: Checkpoint): Generator<{ row: number; values: Record<string, AttributeValue> }>;
  /** Whether `files` names exactly these files, unchanged on disk. */
  isCurrent(files: ShapefileFiles): boolean;
  close(): void;
}

/** Decoding many records looks for cancellation every 1,024 records (a record's own decoding looks too). */
const DECODES_PER_CHECKPOINT_MASK = 1023;

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
      const openedFile = path === undefined ? undefined : openInside(path, realRoot);
      if (openedFile) opened.set(kind, openedFile);
      else if (kind === 'shp') return undefined;
    }
    const parts = new Map([...opened].map(([kind, { fd, stats }]) => [kind, { file: basename(files.paths[kind]!), bytes: descriptorReader(fd, stats.size) }]));
    const version = [...opened].map(([kind, { stats }]) => `${kind}:${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}`).join('|');
    const isCurrent = (current: ShapefileFiles) =>
      FILE_KINDS.every((kind) => {
        const path = current.paths[kind];
        const file = opened.get(kind);
        if (path !== files.paths[kind]) return false;
        return path === undefined || file === undefined ? true : unchangedOnDisk(path, file.stats);
      });
    return shapefileLayer(files.name, parts, { version, isCurrent, close: closeAll }, cache, checkpoint);
  } catch (error) {
    closeAll();
    throw error;
  }
}

/** What a layer's opener knows of the files it opened: which version they are, whether they still are, how to let them go. */
export interface OpenedVersion {
  /** Equal when the same files are opened again unchanged: the feature cache's key. */
  version: string;
  isCurrent(files: ShapefileFiles): boolean;
  close(): void;
}

/** The layer of shapefile `name` read from `parts` (a `.shp` at least), whatever reads their bytes. */
export function shapefileLayer(
  name: string,
  parts: ReadonlyMap<FileKind, ShapefilePart>,
  opened: OpenedVersion,
  cache: FeatureCache | undefined,
  checkpoint: Checkpoint,
): OpenShapefile {
  const shp = openShp(parts.get('shp')!);
  const shx = parts.get('shx');
  const { index, shapeType, recordType, bbox } = shx ? shxLayer(shx, shp.header) : shp.layerWithoutShx(checkpoint);
  const problems: string[] = [];

  const prj = parts.get('prj');
  const { crs, problem } = crsFromPrj(prj && readSideFile(prj.bytes), bbox);
  if (prj && problem) problems.push(`${prj.file} is unusable, read as if absent: ${problem}`);

  const dbfFile = parts.get('dbf');
  const dbf = dbfFile ? openDbf(dbfFile, parts.get('cpg'), (cpgProblem) => problems.push(cpgProblem)) : WITHOUT_DBF;

  const versionKey = opened.version;

  const checkFid = (fid: number) => {
    if (Number.isSafeInteger(fid) && fid >= 0 && fid < index.count) return;
    if (index.fault && fid >= index.count) throw new DamagedShapefileError(shp.file, index.fault);
    throw new NotFoundError(`Feature ${fid} does not exist in shapefile '${name}' (it has ${index.count} features).`);
  };

  /**
   * GDAL's GetFeature gives no feature for a record whose .dbf row is marked deleted, and
   * lists none (ogrshapelayer.cpp, shape2ogr.cpp SHPReadOGRFeature): it does not exist.
   */
  const deletedFeature = (fid: number) =>
    new NotFoundError(`Feature ${fid} of shapefile '${name}' is deleted: its .dbf row is marked deleted.`);

  function readShapes(fids: readonly number[], options: ReadShapeOptions): (Shape | null)[] {
    for (const fid of fids) checkFid(fid);
    if (shapeType === ShapeType.MultiPatch) {
      throw new BadRequestError(`Shapefile '${name}' has shape type MultiPatch, which shapeshot cannot draw.`);
    }
    const shapes: (Shape | null)[] = new Array(fids.length);
    const unread: number[] = [];
    const places: number[] = [];
    fids.forEach((fid, place) => {
      const cached = options.useCache ? cache?.get(versionKey, fid) : undefined;
      if (cached !== undefined) shapes[place] = cached;
      else {
        unread.push(fid);
        places.push(place);
      }
    });
    let deleted: Uint8Array;
    try {
      deleted = dbf.deletedAmong(unread);
    } catch (error) {
      // A remote file's rows and records are fetched together, in one round trip.
      throw alsoWanted(error, () => shp.readRecords(index, unread));
    }
    const firstDeleted = deleted.indexOf(1);
    if (firstDeleted >= 0) throw deletedFeature(unread[firstDeleted]);
    const records = shp.readRecords(index, unread);
    options.lap?.('read');
    const decoding = { maxRings: options.maxRings, checkpoint: options.checkpoint };
    records.forEach(({ content, tooShort }, i) => {
      if ((i & DECODES_PER_CHECKPOINT_MASK) === 0) options.checkpoint();
      const shape = decodeRecord(content, recordType, unread[i], shp.file, tooShort ? { ...decoding, tooShort } : decoding);
      if (options.useCache) cache?.set(versionKey, unread[i], shape);
      shapes[places[i]] = shape;
    });
    options.lap?.('decode');
    return shapes;
  }

  return {
    name,
    shapeType,
    featureCount: index.count,
    bbox,
    crs,
    problems,
    version: versionKey,
    vertexBounds(fids) {
      for (const fid of fids) checkFid(fid);
      return index.locateAll(fids).contentBytes.map((contentBytes) => maxVertices(recordType, contentBytes));
    },
    drawable(fids) {
      for (const fid of fids) checkFid(fid);
      return Uint8Array.from(shp.recordStarts(index, fids, RECORD_COUNTS_BYTES), (head) => (drawsGeometry(head) ? 1 : 0));
    },
    partBounds(fids) {
      for (const fid of fids) checkFid(fid);
      const heads = shp.recordStarts(index, fids, RECORD_COUNTS_BYTES);
      const { contentBytes } = index.locateAll(fids);
      // A record cannot hold more pieces than vertices, whatever its counts claim.
      return Float64Array.from(heads, (head, i) => Math.min(recordFacts(head).partCount, maxVertices(recordType, contentBytes[i])));
    },
    readShape: (fid, options) => readShapes([fid], options)[0],
    readShapes,
    *walk(walkCheckpoint) {
      const deleted = dbf.deletedRows();
      for (const record of shp.records(index.locations(walkCheckpoint), walkCheckpoint)) {
        if (!deleted(record.fid)) yield record;
      }
    },
    readAttributes(fid) {
      checkFid(fid);
      const attributes = dbf.attributes(fid);
      if (attributes === undefined) throw deletedFeature(fid);
      return attributes;
    },
    fields: dbf.fields,
    attributeRows: (fieldNames, rowsCheckpoint) => dbf.rows(fieldNames, index.count, rowsCheckpoint),
    isCurrent: opened.isCurrent,
    close: opened.close,
  };
}
