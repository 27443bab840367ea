/**
 * Opens a file only when what was opened is a regular file inside the data folder. The
 * check is made on the opened file itself (device and inode), not on the name before the
 * open, so a name swapped for a symlink between a check and an open cannot lead outside:
 * the name must resolve, after the open, to a regular file inside the folder that is the
 * very file opened.
 */
import { closeSync, fstatSync, lstatSync, openSync, realpathSync, statSync, type Stats } from 'node:fs';
import { sep } from 'node:path';

export interface OpenedFile {
  fd: number;
  /** The opened file's stats, as fstat gave them. */
  stats: Stats;
}

/** An opened file and its name, for messages. */
export interface NamedFile extends OpenedFile {
  file: string;
}

/** undefined when the file does not exist or does not lie inside `realRoot`. */
export function openInside(path: string, realRoot: string): OpenedFile | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    const real = realpathSync(path);
    const named = lstatSync(real);
    const inside = real.startsWith(realRoot + sep) && named.isFile() && sameFile(named, stats);
    if (stats.isFile() && inside) return { fd, stats };
  } catch {
    // the name vanished or changed while it was checked: not served
  }
  closeSync(fd);
  return undefined;
}

/** Whether the file at `path` is still the one `opened` holds, unchanged. */
export function unchangedOnDisk(path: string, opened: Stats): boolean {
  try {
    const now = statSync(path);
    return sameFile(now, opened) && now.size === opened.size && now.mtimeMs === opened.mtimeMs;
  } catch {
    return false;
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}
