/**
 * The shapefiles of a remote data source (HTTP, S3, a plugin's) on a drawing worker. The
 * readers stay synchronous (shapefile/byte-reader.ts): a job runs in phases. Its handler
 * runs; a read of bytes not yet fetched throws BytesNotHeld; the job fetches them (through
 * the worker's block cache, shared by its jobs; waiting lets the worker run its other jobs)
 * and runs the handler again, until it gets through. Opening a version reads its opening bytes
 * (shapefile/opening-bytes.ts: headers, .prj, .cpg), which the main thread fetched for every
 * worker and handed with the job (sources/openings.ts), or, when it could not, which the job
 * fetches at once; the opened version keeps them decoded. A feature's .shx entry then comes
 * in a block of the block cache (a busy file's whole .shx, index-fill.ts), and its record
 * (exactly its bytes: the .shp is never read beyond the records asked for) and its .dbf row
 * (in a block) together: one feature of a large file costs three range requests in two
 * round trips and a few tens of kilobytes cold, and one request warm (its record) while its
 * .shx and .dbf blocks are cached.
 *
 * A file that changed under a read (FileChangedError) has the job state every file it opened
 * again (a shapefile replaced is several files replaced, and the .shx of one version must
 * not locate records in the .shp of another) and run again at the versions found, once; a
 * second change, or a source that fails, is a 503 naming the source (sources/source-errors.ts).
 *
 * Each opened version is kept per worker (its headers, index and CRS read once), its
 * readers reading through whichever job is in its phase: phases are synchronous, so only
 * one job reads at a time.
 */
import { NotFoundError } from '../errors.ts';
import { isFileChanged } from '../plugin-contract/data-source-errors.ts';
import type { DataSource, SourceStat } from '../plugin-contract/data-source-plugin.ts';
import { BytesNotHeld, type ByteReader, type FileVersion, type ShapefilePart, type WantedBytes } from '../shapefile/byte-reader.ts';
import { createFeatureCache } from '../shapefile/feature-cache.ts';
import { openingBytes } from '../shapefile/opening-bytes.ts';
import { FILE_KINDS, shapefileLayer, type FileKind, type OpenShapefile, type ShapefileFiles } from '../shapefile/file-set.ts';
import type { OpenShapefiles } from '../shapefile/open-shapefiles.ts';
import type { BlockCache } from '../sources/block-cache.ts';
import { readBudget } from '../sources/read-budget.ts';
import { asServiceError } from '../sources/source-errors.ts';
import { indexFill } from './index-fill.ts';
import { jobBytes, type JobBytes } from './job-bytes.ts';
import type { ShapefileJob, WorkerShapefiles } from './worker-shapefiles.ts';

export interface RemoteShapefilesOptions {
  source: DataSource;
  blocks: BlockCache;
  /** Bytes of decoded shapes this thread keeps; 0 keeps none. */
  cacheBytes: number;
  /** Opened versions kept. */
  maxOpen: number;
  /** Bytes one job may fetch (limits.maxSourceBytes). */
  maxSourceBytes: number;
  /** Told once per opened version about side files it does not use. */
  onProblem(problem: string): void;
}

/** What one job reads with: its fetched bytes, the files it opened, and their versions stated again after one changed. */
interface JobReads {
  bytes: JobBytes;
  /** Source names of every file the job opened. */
  opened: Set<string>;
  /** By source name: a file stated again after one changed (undefined: it is gone). */
  restated: Map<string, SourceStat | undefined>;
}

export function createRemoteShapefiles(options: RemoteShapefilesOptions): WorkerShapefiles {
  const { source, blocks, maxOpen, onProblem } = options;
  const description = source.describe();
  const cache = createFeatureCache(options.cacheBytes);
  const index = indexFill(source, blocks, onProblem);
  /** By lower-case name, in use order: the version opened and its layer. */
  const opened = new Map<string, { key: string; layer: OpenShapefile }>();
  let reading: JobReads | undefined;

  const current = (): JobReads => {
    if (reading === undefined) throw new Error('A remote shapefile was read outside its job\'s phase (after an await in a job handler).');
    return reading;
  };

  /** The version of each file the job reads: as the main thread found it, or as stated again. */
  const versionsOf = (files: ShapefileFiles): Map<FileKind, FileVersion> => {
    const { restated, opened: named } = current();
    const versions = new Map<FileKind, FileVersion>();
    for (const kind of FILE_KINDS) {
      const name = files.paths[kind];
      if (name === undefined) continue;
      named.add(name);
      const stat = restated.has(name) ? restated.get(name) : files.versions?.[kind];
      if (stat !== undefined) versions.set(kind, { name, version: stat.version, size: stat.size });
      else if (kind === 'shp') throw new NotFoundError(`Shapefile '${files.name}' was not found.`);
    }
    return versions;
  };

  /** A .shp's records are read exactly: the feature cache keeps them decoded, their neighbours are not wanted. */
  const readerOf = (file: FileVersion, kind: FileKind): ByteReader => ({
    size: file.size,
    readAt(position, length) {
      try {
        return current().bytes.read(file, position, length, kind === 'shp');
      } catch (error) {
        // Past the .shx header, a miss is one of its entries.
        if (kind === 'shx' && position > 0 && error instanceof BytesNotHeld) index.missed(file, position);
        throw error;
      }
    },
  });

  const open = (files: ShapefileFiles, checkpoint: Parameters<OpenShapefiles['open']>[1]): OpenShapefile => {
    const versions = versionsOf(files);
    const key = JSON.stringify([...versions]);
    const name = files.name.toLowerCase();
    const known = opened.get(name);
    if (known?.key === key) {
      opened.delete(name);
      opened.set(name, known);
      return known.layer;
    }
    const { bytes } = current();
    const headers: WantedBytes[] = [];
    for (const [kind, file] of versions) {
      // The main thread's bytes are of the version it stated: not of one stated again since.
      const given = file.version === files.versions?.[kind]?.version ? files.opening?.[kind] : undefined;
      if (bytes.keep(file, given)) continue;
      const length = openingBytes(kind, file.size);
      if (!bytes.holds(file, 0, length)) headers.push({ file, offset: 0, length, exact: true });
    }
    if (headers.length > 0) throw new BytesNotHeld(headers);
    const parts = new Map<FileKind, ShapefilePart>([...versions].map(([kind, file]) => [kind, { file: file.name, bytes: readerOf(file, kind) }]));
    const layer = shapefileLayer(
      files.name,
      parts,
      { version: `${description}\n${key}`, isCurrent: (other) => JSON.stringify([...versionsOf(other)]) === key, close: () => {} },
      cache,
      checkpoint,
    );
    for (const problem of layer.problems) onProblem(`Shapefile '${files.name}': ${problem}`);
    opened.delete(name);
    opened.set(name, { key, layer });
    while (opened.size > maxOpen) opened.delete(opened.keys().next().value!);
    return layer;
  };

  const shapefiles: OpenShapefiles = { open, cache, close: () => opened.clear() };

  return {
    cache,
    async run<T>(job: ShapefileJob<T>, { checkpoint, waitFor }: Parameters<WorkerShapefiles['run']>[1]): Promise<T> {
      const reads: JobReads = { bytes: jobBytes(source, blocks, readBudget(options.maxSourceBytes)), opened: new Set(), restated: new Map() };
      let changedOnce = false;
      for (;;) {
        checkpoint();
        let missing: BytesNotHeld;
        try {
          let outcome: T | Promise<T>;
          reading = reads;
          try {
            outcome = job(shapefiles);
          } finally {
            reading = undefined;
          }
          return await outcome;
        } catch (error) {
          if (!(error instanceof BytesNotHeld)) throw error;
          missing = error;
        }
        await waitFor(async (signal) => {
          try {
            await reads.bytes.fetch(missing, signal);
          } catch (error) {
            if (!isFileChanged(error) || changedOnce) throw asServiceError(error, description, signal);
            changedOnce = true;
            const names = [...reads.opened];
            const stated = await Promise.all(names.map((name) => source.stat(name, signal))).catch((failure: unknown) =>
              Promise.reject(asServiceError(failure, description, signal)),
            );
            names.forEach((name, i) => reads.restated.set(name, stated[i]));
          }
        });
      }
    },
    close: shapefiles.close,
  };
}
