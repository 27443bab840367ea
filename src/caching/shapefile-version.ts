/**
 * A shapefile's version as the picture caches see it (ETag, Last-Modified): a picture may
 * be answered 304, or kept, only while the files it was drawn from are unchanged.
 */
import { stat } from 'node:fs';
import type { SourceStat } from '../plugin-contract/data-source-plugin.ts';
import type { FileSetPaths, ShapefileFiles } from '../shapefile/file-set.ts';
import { recentReadings } from '../shapefile/recent-readings.ts';

export interface ShapefileVersion {
  /**
   * Size and modification time (whole milliseconds) of each file of the shapefile that
   * exists; for a remote source, size and the version the source states (its ETag and
   * Last-Modified).
   */
  files: Partial<Record<keyof FileSetPaths, [size: number, mtimeMs: number] | [size: number, version: string]>>;
  /** When the most recently changed of its files changed; undefined when its source tells no file's time (a plugin may not). */
  lastModified?: Date;
}

/**
 * Which version of a shapefile's files is on disk, from their sizes and modification
 * times: what is equal on every instance serving a copy of the same data (device and
 * inode are not), and cheap enough for every request, where hashing the content is not.
 * Modification times are taken to the whole millisecond: copies do not all keep more
 * (`cp -p` and rsync keep nanoseconds, Node's `cpSync` with `preserveTimestamps` about a
 * microsecond), and HTTP dates keep only seconds. The stats run off the event loop, side by
 * side: a data folder on a network mount that hangs must hang only the requests that read it,
 * not /health and every other answer with them. One reading stands for `maxAgeMs`
 * (configuration `fileCheckMs`), so a change may be answered with the old ETag for that long:
 * nothing a client's `max-age` does not already allow it for minutes.
 */
export function shapefileVersions(maxAgeMs: number): (files: ShapefileFiles) => Promise<ShapefileVersion> {
  const readings = recentReadings<ShapefileVersion>(maxAgeMs);
  return (files) => (files.versions ? Promise.resolve(sourceVersion(files.versions)) : readings.get(files.paths.shp, () => readVersion(files)));
}

/**
 * A remote source's shapefile: the versions its catalog found it with (sources/source-catalog.ts,
 * which stats the files as often as this module stats local ones), the same on every instance
 * reading the same store.
 */
function sourceVersion(versions: NonNullable<ShapefileFiles['versions']>): ShapefileVersion {
  const files: ShapefileVersion['files'] = {};
  let newest: number | undefined;
  for (const [kind, stat] of Object.entries(versions) as [keyof FileSetPaths, SourceStat][]) {
    files[kind] = [stat.size, stat.version];
    if (stat.modifiedMs !== undefined) newest = Math.max(newest ?? 0, Math.trunc(stat.modifiedMs));
  }
  return newest === undefined ? { files } : { files, lastModified: new Date(newest) };
}

/**
 * The stats side by side, each by callback into one promise: fs/promises' stat costs a
 * promise and more per file (five files: ~90 µs of CPU a request, callbacks ~70, where the
 * synchronous stats they replace cost ~12).
 */
function readVersion(files: ShapefileFiles): Promise<ShapefileVersion> {
  const paths = Object.entries(files.paths) as [keyof FileSetPaths, string][];
  return new Promise((resolve, reject) => {
    const version: ShapefileVersion['files'] = {};
    let newest = 0;
    let left = paths.length;
    for (const [kind, path] of paths) {
      stat(path, (error, found) => {
        // A file gone since the listing counts as absent; the drawing workers decide what that means.
        if (error && !isMissing(error)) return reject(error);
        if (found) {
          const mtimeMs = Math.trunc(found.mtimeMs);
          version[kind] = [found.size, mtimeMs];
          newest = Math.max(newest, mtimeMs);
        }
        if (--left === 0) resolve({ files: orderedAs(paths, version), lastModified: new Date(newest) });
      });
    }
  });
}

/** The files in the order of `paths`, whatever order their stats came back in: the ETag hashes this object. */
function orderedAs(paths: readonly [keyof FileSetPaths, string][], version: ShapefileVersion['files']): ShapefileVersion['files'] {
  const ordered: ShapefileVersion['files'] = {};
  for (const [kind] of paths) if (version[kind]) ordered[kind] = version[kind];
  return ordered;
}

const isMissing = (error: NodeJS.ErrnoException) => error.code === 'ENOENT' || error.code === 'ENOTDIR';
