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
 * One version per answer (docs/configuration.md, "Data sources"): a file that changed under a
 * read (FileChangedError), or files that disagree with one another (a damaged answer, which a
 * shapefile half replaced looks like), have the job state every file it opened again. A
 * shapefile whose data files (.shp, .shx, .dbf) all changed was replaced whole: the job runs
 * again at the new versions, once. One whose .shp is gone, or of which only some changed (an
 * upload under way: S3 writes each object on its own), is a 503 FilesChangedError, never an
 * answer that takes one version's geometry and the other's attributes, and never a 500 for
 * files that disagree only because they are being replaced. A second change, or a source that
 * fails, is a 503 naming the source (sources/source-errors.ts).
 *
 * Each opened version is kept per worker (its headers, index and CRS read once), its
 * readers reading through whichever job is in its phase: phases are synchronous, so only
 * one job reads at a time.
 */
import { DamagedShapefileError, FilesChangedError, NotFoundError } from '../errors.ts';
import { isFileChanged } from '../plugin-contract/data-source-errors.ts';
import type { DataSource, SourceStat } from '../plugin-contract/data-source-plugin.ts';
import { BytesNotHeld, type ByteReader, type FileVersion, type ShapefilePart, type WantedBytes } from '../shapefile/byte-reader.ts';
import { createFeatureCache } from '../shapefile/feature-cache.ts';
import { openingBytes } from '../shapefile/opening-bytes.ts';
import { FILE_KINDS, type FileKind } from '../shapefile/file-kinds.ts';
import { shapefileLayer, type OpenShapefile, type ShapefileFiles } from '../shapefile/file-set.ts';
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

/** What one job reads with: its fetched bytes, the shapefiles it opened, and their files' versions stated again after one changed. */
interface JobReads {
  bytes: JobBytes;
  /** By shapefile name: the version of each of its files the job read. */
  opened: Map<string, Map<FileKind, FileVersion>>;
  /** By source name: a file stated again after one changed (undefined: it is gone). */
  restated: Map<string, SourceStat | undefined>;
}

/** The files whose versions must move together: a shapefile's data. Its .prj and .cpg may be uploaded again unchanged, or not at all. */
const DATA_KINDS: readonly FileKind[] = ['shp', 'shx', 'dbf'];

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
    const { restated } = current();
    const versions = new Map<FileKind, FileVersion>();
    for (const kind of FILE_KINDS) {
      const name = files.paths[kind];
      if (name === undefined) continue;
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
    current().opened.set(files.name, versions);
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
      const reads: JobReads = { bytes: jobBytes(source, blocks, readBudget(options.maxSourceBytes)), opened: new Map(), restated: new Map() };
      let changedOnce = false;
      /**
       * States the job's files again, once: the versions it runs at from then on (and whether
       * any is new), or the 503 of files caught changing.
       */
      const stateAgain = async (signal: AbortSignal): Promise<boolean> => {
        changedOnce = true;
        const names = [...reads.opened.values()].flatMap((versions) => [...versions.values()].map((file) => file.name));
        const stated = await Promise.all(names.map((name) => source.stat(name, signal))).catch((failure: unknown) =>
          Promise.reject(asServiceError(failure, description, signal)),
        );
        names.forEach((name, i) => reads.restated.set(name, stated[i]));
        const changes = [...reads.opened].map(([name, versions]) => ({ name, change: changeOf(versions, reads.restated) }));
        const torn = changes.find(({ change }) => change === 'part' || change === 'gone');
        if (torn) throw new FilesChangedError(changedMessage(torn.name, description, torn.change as 'part' | 'gone'));
        return changes.some(({ change }) => change === 'whole');
      };
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
          // Files that disagree may be files half replaced: told apart by stating them again.
          if (error instanceof DamagedShapefileError && !changedOnce) {
            let replaced = false;
            await waitFor(async (signal) => {
              replaced = await stateAgain(signal);
            });
            if (replaced) continue;
            throw error;
          }
          if (!(error instanceof BytesNotHeld)) throw error;
          missing = error;
        }
        await waitFor(async (signal) => {
          try {
            await reads.bytes.fetch(missing, signal);
          } catch (error) {
            if (!isFileChanged(error)) throw asServiceError(error, description, signal);
            if (changedOnce) throw new FilesChangedError(`${error.message} It changed again when read again; try again shortly.`);
            await stateAgain(signal);
          }
        });
      }
    },
    close: shapefiles.close,
  };
}

/**
 * How a shapefile's data files changed since the job read them: 'whole' when every one of them
 * has a new version (a replacement complete), 'none' when none has, 'gone' when its .shp is,
 * 'part' when some changed and others not.
 */
function changeOf(read: ReadonlyMap<FileKind, FileVersion>, restated: ReadonlyMap<string, SourceStat | undefined>): 'whole' | 'none' | 'part' | 'gone' {
  const shp = read.get('shp');
  if (shp !== undefined && restated.has(shp.name) && restated.get(shp.name) === undefined) return 'gone';
  const moved = DATA_KINDS.flatMap((kind) => {
    const file = read.get(kind);
    return file === undefined ? [] : [restated.get(file.name)?.version !== file.version];
  });
  if (moved.every((changed) => !changed)) return 'none';
  return moved.every((changed) => changed) ? 'whole' : 'part';
}

function changedMessage(shapefile: string, source: string, change: 'part' | 'gone'): string {
  return change === 'gone'
    ? `Shapefile '${shapefile}' is no longer at data source ${source} (removed, or the source itself is gone); try again shortly.`
    : `Shapefile '${shapefile}' at data source ${source} changed while it was read: some of its files were replaced and others not yet (an upload under way?); try again shortly.`;
}
