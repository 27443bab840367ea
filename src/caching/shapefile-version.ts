import { statSync } from 'node:fs';
import type { FileSetPaths, ShapefileFiles } from '../shapefile/file-set.ts';

export interface ShapefileVersion {
  /** Size and modification time (whole milliseconds) of each file of the shapefile that exists. */
  files: Partial<Record<keyof FileSetPaths, [size: number, mtimeMs: number]>>;
  /** When the most recently changed of its files changed. */
  lastModified: Date;
}

/**
 * Which version of a shapefile's files is on disk, from their sizes and modification
 * times: what is equal on every instance serving a copy of the same data (device and
 * inode are not), and cheap enough for every request, where hashing the content is not.
 * Modification times are taken to the whole millisecond: copies do not all keep more
 * (`cp -p` and rsync keep nanoseconds, Node's `cpSync` with `preserveTimestamps` about a
 * microsecond), and HTTP dates keep only seconds. The stats are synchronous for the
 * data folder's reason (data-folder.ts): microseconds, where asynchronous ones would put
 * every request behind a turn of the event loop.
 */
export function shapefileVersion(files: ShapefileFiles): ShapefileVersion {
  const version: ShapefileVersion['files'] = {};
  let newest = 0;
  for (const [kind, path] of Object.entries(files.paths) as [keyof FileSetPaths, string][]) {
    // A file gone since the listing counts as absent; the drawing workers decide what that means.
    const stats = statSync(path, { throwIfNoEntry: false });
    if (!stats) continue;
    const mtimeMs = Math.trunc(stats.mtimeMs);
    version[kind] = [stats.size, mtimeMs];
    newest = Math.max(newest, mtimeMs);
  }
  return { files: version, lastModified: new Date(newest) };
}
