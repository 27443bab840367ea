/**
 * Opens a file only when what was opened is a regular file inside the data folder. The
 * check is made on the opened file itself (device and inode), not on the name before the
 * open, so a name swapped for a symlink between a check and an open cannot lead outside:
 * the name must resolve, after the open, to a regular file inside the folder that is the
 * very file opened.
 *
 * Only regular files are read. The open itself does not wait: a FIFO swapped in for a file
 * would otherwise hold the worker in open() until some writer came (O_NONBLOCK makes it
 * return at once; on a regular file the flag changes nothing), and what was opened is then
 * refused unless fstat says it is a regular file.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, sep } from 'node:path';
import { ServiceError } from '../errors.ts';

/** Read-only, and not waiting in open() (where the platform has the flag: Windows has no FIFOs to wait on). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

export interface OpenedFile {
  fd: number;
  /** The opened file's stats, as fstat gave them. */
  stats: Stats;
}

/**
 * undefined when the file does not exist or does not lie inside `realRoot`; a 500 naming the
 * file when it lies inside but is no regular file (a FIFO, a device, a folder).
 */
export function openInside(path: string, realRoot: string): OpenedFile | undefined {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch {
    return undefined;
  }
  let stats: Stats | undefined;
  let inside = false;
  try {
    stats = fstatSync(fd);
    const real = realpathSync(path);
    inside = isInside(real, realRoot, lstatSync(real), stats);
  } catch {
    // the name vanished or changed while it was checked: not served
  }
  if (inside && stats!.isFile()) return { fd, stats: stats! };
  closeSync(fd);
  if (inside) throw notRegularFile(path);
  return undefined;
}

/** Whether the name's real path `real` (whose lstat is `named`) lies inside `realRoot` and is the very file `opened`. */
function isInside(real: string, realRoot: string, named: Stats, opened: Stats): boolean {
  return real.startsWith(realRoot + sep) && sameFile(named, opened);
}

function notRegularFile(path: string): ServiceError {
  return new ServiceError(500, `Shapefile file '${basename(path)}' is not a regular file (a FIFO, a device or a folder); only regular files are read.`);
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
