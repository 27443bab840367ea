/**
 * The catalog of a remote data source, as the main thread serves it (the same DataFolder a
 * local folder gives, data-folder.ts): the source's listing grouped into shapefiles, listed
 * again every `catalogTtlMs` (in the background: requests go on with the listing before, which
 * a failed listing keeps) and at once (at most once a second) for a name it lacks, and
 * each shapefile found with its files' sizes and versions as the source states them now
 * (one stat per file, standing `fileCheckMs`, as a local file's stat does, and given for
 * `fileCheckMs` more while it is made again in the background; a listing's entries count as
 * stats made when it was made) and its files' opening bytes (openings.ts, fetched ahead
 * after each listing). Those versions are what the ETag is made of and what the drawing
 * workers read (whose reads find a file changed since and read it again), so a file
 * replaced in the store is always drawn fresh, and under a new ETag within twice
 * `fileCheckMs`.
 */
import type { DataSource, SourceEntry, SourceStat } from '../plugin-contract/data-source-plugin.ts';
import { groupFileSets, type DataFolder } from '../shapefile/data-folder.ts';
import { FILE_KINDS, type FileKind, type ShapefileFiles } from '../shapefile/file-set.ts';
import { recentReadings } from '../shapefile/recent-readings.ts';
import { createOpenings } from './openings.ts';
import { asServiceError } from './source-errors.ts';

/** A name the listing lacks sends the source a new listing at most this often: a listing costs it more than a stat. */
const RELIST_INTERVAL_MS = 1000;

export function createSourceCatalog(source: DataSource, { catalogTtlMs, fileCheckMs }: { catalogTtlMs: number; fileCheckMs: number }): DataFolder {
  const description = source.describe();
  let sets = new Map<string, ShapefileFiles>();
  let listedAt = -Infinity;
  let listing: Promise<void> | undefined;
  // A stat up to twice its age is given while a newer one is made: under load, no request waits for a HEAD.
  const stats = recentReadings<SourceStat | undefined>(fileCheckMs, fileCheckMs);
  const statOf = (name: string) => stats.get(name, () => sourceCall(source.stat(name, never)));
  const openings = createOpenings(source);

  // The main thread's calls have no request signal to stop with: the source's own timeout and retry bound them.
  const never = new AbortController().signal;
  const sourceCall = <T>(call: Promise<T>) => call.catch((error: unknown) => Promise.reject(asServiceError(error, description, never)));

  const relist = () =>
    (listing ??= (async () => {
      try {
        const started = performance.now();
        const entries = await sourceCall(source.list(never));
        sets = groupFileSets('', entries.map((entry) => entry.name));
        const listed = new Map(entries.map((entry) => [entry.name, entry]));
        const withListed = [...sets.values()].map((files) => withListedVersions(files, listed));
        // As stats made when the listing started (a stat made since is newer), of the shapefiles' files only.
        for (const { paths, versions = {} } of withListed) {
          for (const [kind, stat] of Object.entries(versions) as [FileKind, SourceStat][]) stats.seed(paths[kind]!, stat, started);
        }
        openings.prefetch(withListed);
      } finally {
        // From the end of a listing, failed or not: a slow or failing source is asked again after the interval, not at once.
        listedAt = performance.now();
      }
    })().finally(() => {
      listing = undefined;
    }));

  /**
   * The catalog no older than `catalogTtlMs`: the first listing is waited for; later ones are
   * made while requests go on with the one before, which a failed listing leaves in place until
   * the next try, `catalogTtlMs` later (a file's own stat still finds it gone or changed).
   */
  const current = async () => {
    if (performance.now() - listedAt < catalogTtlMs) return;
    if (listedAt === -Infinity) return relist();
    void relist().catch(() => undefined);
  };

  /** The shapefile with each file's current size and version; undefined when its .shp is gone. */
  const withVersions = async (files: ShapefileFiles): Promise<ShapefileFiles | undefined> => {
    const kinds = FILE_KINDS.filter((kind) => files.paths[kind] !== undefined);
    const found = await Promise.all(kinds.map((kind) => statOf(files.paths[kind]!)));
    const paths: ShapefileFiles['paths'] = { shp: files.paths.shp };
    const versions: Partial<Record<FileKind, SourceStat>> = {};
    kinds.forEach((kind, i) => {
      const stat = found[i];
      if (stat === undefined) return;
      paths[kind] = files.paths[kind]!;
      versions[kind] = stat;
    });
    if (versions.shp === undefined) return undefined;
    const withStats = { name: files.name, paths, versions };
    return { ...withStats, opening: openings.held(withStats) };
  };

  return {
    async find(name) {
      if (typeof name !== 'string' || name === '') return undefined;
      await current();
      const key = name.toLowerCase();
      if (!sets.has(key) && performance.now() - listedAt >= RELIST_INTERVAL_MS) await relist();
      const files = sets.get(key);
      return files && (await withVersions(files));
    },
    async names() {
      await current();
      return [...sets.values()].map((entry) => entry.name).sort((a, b) => a.localeCompare(b));
    },
  };
}

/** The shapefile with each file's size and version as the listing gave them. */
function withListedVersions(files: ShapefileFiles, listed: ReadonlyMap<string, SourceEntry>): ShapefileFiles {
  const versions: Partial<Record<FileKind, SourceStat>> = {};
  for (const kind of FILE_KINDS) {
    const entry = files.paths[kind] === undefined ? undefined : listed.get(files.paths[kind]);
    if (entry === undefined) continue;
    const { name: _name, ...stat } = entry;
    versions[kind] = stat;
  }
  return { ...files, versions };
}
