/**
 * The data folder's listing: which shapefiles exist and which files belong to each.
 * Request names are only ever looked up in this listing, never joined into a path, so no
 * name can reach outside the folder; and the drawing workers check, when they open a file,
 * that it lies inside the folder (open-inside.ts).
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { FileSetPaths, ShapefileFiles } from './file-set.ts';
import type { ShapefileCatalog } from './shapefile-catalog.ts';
import { recentReadings } from './recent-readings.ts';
import { abortable } from '../cancellation/abortable.ts';

/** Rescans for names that are not found happen at most this often, unless the folder changed. */
const RESCAN_INTERVAL_MS = 250;
const SIDE_FILES = ['shx', 'dbf', 'prj', 'cpg'] as const;

/** Groups file names by shapefile, matching names and extensions case-insensitively. */
export function groupFileSets(root: string, fileNames: readonly string[]): Map<string, ShapefileFiles> {
  const sorted = [...fileNames].sort();
  const exact = new Set(sorted);
  const byLowerName = new Map(sorted.map((fileName) => [fileName.toLowerCase(), fileName]));
  const sets = new Map<string, ShapefileFiles>();
  for (const fileName of sorted) {
    const match = /^(.+)\.shp$/i.exec(fileName);
    if (!match) continue;
    const name = match[1];
    const key = name.toLowerCase();
    if (sets.has(key)) continue;
    const paths: FileSetPaths = { shp: join(root, fileName) };
    for (const extension of SIDE_FILES) {
      const sideFile = exact.has(`${name}.${extension}`)
        ? `${name}.${extension}`
        : byLowerName.get(`${key}.${extension}`);
      if (sideFile !== undefined) paths[extension] = join(root, sideFile);
    }
    sets.set(key, { name, paths });
  }
  return sets;
}

/**
 * The shapefiles of folder `root`, looked at again when its modification time moves. One
 * look at that time stands for `lookAgainAfterMs` (configuration `fileCheckMs`), except for a
 * name not listed, which is looked for at once: a file copied in is served at once. A file
 * removed is found missing by the worker that opens it (404) until the next look.
 */
export function createDataFolder(root: string, lookAgainAfterMs = 0): ShapefileCatalog {
  let sets = new Map<string, ShapefileFiles>();
  let scannedAt = -Infinity;
  let scannedMtime = NaN;
  let scanning: Promise<void> | undefined;

  const rescan = () => {
    scanning ??= scan().finally(() => {
      scanning = undefined;
    });
    return scanning;
  };

  const scan = async () => {
    const started = Date.now();
    const mtime = (await stat(root)).mtimeMs;
    const realRoot = await realpath(root);
    const entries = await readdir(root, { withFileTypes: true });
    const fileNames: string[] = [];
    await Promise.all(
      entries.map(async (entry) => {
        if (entry.isFile() || (entry.isSymbolicLink() && (await isFileInside(join(root, entry.name), realRoot)))) {
          fileNames.push(entry.name);
        }
      }),
    );
    sets = groupFileSets(root, fileNames);
    scannedAt = started;
    scannedMtime = mtime;
  };

  /**
   * The folder's mtime, off the event loop (a hung network mount must not freeze /health and
   * every other answer); requests that ask at the same time share one stat.
   */
  const folderLooks = recentReadings<number>(lookAgainAfterMs);
  const folderMtime = (maxAgeMs?: number) => folderLooks.get(root, () => stat(root).then((stats) => stats.mtimeMs), maxAgeMs);

  /** Rescans when the folder's mtime moved (a file was added, removed or renamed). */
  const refresh = async (maxAgeMs?: number) => {
    if ((await folderMtime(maxAgeMs)) !== scannedMtime) await rescan();
  };

  return {
    async find(name, signal) {
      if (typeof name !== 'string' || name === '') return undefined;
      await abortable(refresh(), signal);
      const key = name.toLowerCase();
      if (!sets.has(key)) await abortable(refresh(0), signal);
      if (!sets.has(key) && Date.now() - scannedAt >= RESCAN_INTERVAL_MS) await abortable(rescan(), signal);
      return sets.get(key);
    },
    // Listings are few (the /ogc collections, the playground's menu): each sees the folder as it is.
    async names(signal) {
      await abortable(refresh(0), signal);
      return [...sets.values()].map((entry) => entry.name).sort((a, b) => a.localeCompare(b));
    },
  };
}

/** A symlink counts only when it resolves to a regular file inside the folder, as the workers' open-inside check reads it. */
async function isFileInside(path: string, realRoot: string): Promise<boolean> {
  try {
    const target = await realpath(path);
    return target.startsWith(realRoot + sep) && (await stat(target)).isFile();
  } catch {
    return false;
  }
}
