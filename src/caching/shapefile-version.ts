/**
 * A shapefile's version as the picture caches see it (ETag, Last-Modified): a picture may
 * be answered 304, or kept, only while the files it was drawn from are unchanged.
 */
import { stat } from 'node:fs/promises';
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
 * microsecond), and HTTP dates keep only seconds. The stats run off the event loop, side by
 * side: a data folder on a network mount that hangs must hang only the requests that read it,
 * not /health and every other answer with them.
 */
export async function shapefileVersion(files: ShapefileFiles): Promise<ShapefileVersion> {
  const paths = Object.entries(files.paths) as [keyof FileSetPaths, string][];
  // A file gone since the listing counts as absent; the drawing workers decide what that means.
  const stats = await Promise.all(paths.map(([, path]) => stat(path).catch(unlessMissing)));
  const version: ShapefileVersion['files'] = {};
  let newest = 0;
  paths.forEach(([kind], index) => {
    const found = stats[index];
    if (!found) return;
    const mtimeMs = Math.trunc(found.mtimeMs);
    version[kind] = [found.size, mtimeMs];
    newest = Math.max(newest, mtimeMs);
  });
  return { files: version, lastModified: new Date(newest) };
}

function unlessMissing(error: NodeJS.ErrnoException): undefined {
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
  throw error;
}
