/**
 * The data folder as a catalog of shapefiles. Every open() checks the files with stat, so a
 * file added, replaced or removed on disk is seen at once; open file sets are kept per
 * version (device, inode, size and mtime of each file) and closed when replaced.
 */
import { stat } from 'node:fs/promises';
import { LRUCache } from 'lru-cache';
import { createDataFolder } from './data-folder.ts';
import { createFeatureCache } from './feature-cache.ts';
import { openFileSet, type FileSetPaths, type FileSetSizes, type OpenFileSet } from './file-set.ts';
import type { ShapefileCatalog } from './types.ts';

/** The part of a pino logger the catalog uses. */
export interface CatalogLogger {
  warn(details: object, message: string): void;
}

export interface CatalogOptions {
  dataDir: string;
  /** Bound of the decoded-feature cache; 0 turns it off. */
  cacheBytes: number;
  logger?: CatalogLogger;
}

/** Bounds open file handles (three per set) and rebuilt .shx tables. */
const MAX_OPEN_FILE_SETS = 64;

interface Version {
  signature: string;
  opened: Promise<OpenFileSet>;
}

export function createCatalog(options: CatalogOptions): ShapefileCatalog {
  const folder = createDataFolder(options.dataDir);
  const cache = createFeatureCache(options.cacheBytes);
  const versions = new LRUCache<string, Version>({
    max: MAX_OPEN_FILE_SETS,
    dispose: (version) => {
      version.opened.then((set) => set.retire(), () => undefined);
    },
  });

  return {
    async open(name) {
      if (typeof name !== 'string' || name === '') return undefined;
      const entry = await folder.find(name);
      if (!entry) return undefined;
      const found = await statFileSet(entry.paths);
      if (!found) {
        folder.invalidate();
        return undefined;
      }
      const key = entry.name.toLowerCase();
      const current = versions.get(key);
      if (current?.signature === found.signature) return (await current.opened).shapefile;

      const version: Version = {
        signature: found.signature,
        opened: openFileSet(entry.name, found.paths, found.sizes, cache, `${key}\0${found.signature}`),
      };
      versions.set(key, version);
      try {
        const set = await version.opened;
        for (const { file, problem } of set.problems) {
          options.logger?.warn({ shapefile: entry.name, file, problem }, 'Shapefile side file not used');
        }
        return set.shapefile;
      } catch (error) {
        if (versions.get(key) === version) versions.delete(key);
        throw error;
      }
    },

    async list() {
      return (await folder.names()).sort((a, b) => a.localeCompare(b));
    },

    async close() {
      const open = [...versions.values()];
      versions.clear();
      await Promise.all(open.map((version) => version.opened.then((set) => set.close(), () => undefined)));
    },
  };
}

interface FoundFileSet {
  signature: string;
  paths: FileSetPaths;
  sizes: FileSetSizes;
}

const FILE_KINDS = ['shp', 'shx', 'dbf', 'prj', 'cpg'] as const;

/** The files that exist now, and their version signature; undefined when the .shp is gone. */
async function statFileSet(listed: FileSetPaths): Promise<FoundFileSet | undefined> {
  const stats = await Promise.all(
    FILE_KINDS.map((kind) => {
      const path = listed[kind];
      return path === undefined ? undefined : stat(path).catch(() => undefined);
    }),
  );
  const [shpStat, shxStat] = stats;
  if (!shpStat?.isFile()) return undefined;
  const paths: FileSetPaths = { shp: listed.shp };
  const signature: string[] = [];
  FILE_KINDS.forEach((kind, i) => {
    const fileStat = stats[i];
    if (fileStat?.isFile()) {
      paths[kind] = listed[kind]!;
      signature.push(`${kind}:${fileStat.dev}:${fileStat.ino}:${fileStat.size}:${fileStat.mtimeMs}`);
    }
  });
  return {
    signature: signature.join('|'),
    paths,
    sizes: { shp: shpStat.size, shx: shxStat?.isFile() ? shxStat.size : undefined },
  };
}
