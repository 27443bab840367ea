/**
 * The local data folder as a data source: the same contract as the remote ones, so that
 * whatever reads through a source (the block cache, the tests that compare sources) reads
 * the folder the same way. Asynchronous (fs.promises), for the main thread. The drawing
 * workers keep reading the folder by their own synchronous positional reads, which cost no
 * round trip; see the wiring plan of issue 22.
 *
 * The folder's rules are the workers' own, imported, not copied: a file is listed when it is
 * a regular file or a symlink to one inside the folder (data-folder.ts), and opened only when
 * what was opened is a regular file inside the folder (open-inside.ts).
 */
import { readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { Stats } from 'node:fs';
import { FileChangedError } from '../plugin-contract/data-source-errors.ts';
import type { DataSource, SourceEntry } from '../plugin-contract/data-source-plugin.ts';
import { isFileInside } from '../shapefile/data-folder.ts';
import { openInsideAsync, type OpenedHandle } from '../shapefile/open-inside.ts';
import { isPlainName } from './json-catalog.ts';

/** A local file's version: its inode (a file replaced by a rename is another), size and modification time. */
export function localVersion(stats: Stats): string {
  return `${stats.ino}-${stats.size}-${stats.mtimeMs}`;
}

export function createLocalSource(root: string): DataSource {
  const description = `local folder ${root}`;
  // The real path is taken once per call: a folder swapped for a symlink is seen at once.
  const openNamed = async (name: string): Promise<OpenedHandle | undefined> =>
    isPlainName(name) ? openInsideAsync(join(root, name), await realpath(root)) : undefined;

  return {
    describe: () => description,

    async list(signal): Promise<SourceEntry[]> {
      const realRoot = await realpath(root);
      const entries = await readdir(root, { withFileTypes: true });
      const listed = await Promise.all(
        entries.map(async (entry): Promise<SourceEntry | undefined> => {
          signal.throwIfAborted();
          const path = join(root, entry.name);
          if (!entry.isFile() && !(entry.isSymbolicLink() && (await isFileInside(path, realRoot)))) return undefined;
          const stats = await statInside(entry.name);
          return stats && { name: entry.name, size: stats.size, version: localVersion(stats) };
        }),
      );
      return listed.filter((entry) => entry !== undefined);
    },

    async stat(name) {
      const stats = await statInside(name);
      return stats && { size: stats.size, version: localVersion(stats), modifiedMs: stats.mtimeMs };
    },

    async read(name, offset, length, signal, version) {
      const opened = await openNamed(name);
      if (opened === undefined || (version !== undefined && localVersion(opened.stats) !== version)) {
        await opened?.handle.close();
        throw new FileChangedError(description, name);
      }
      try {
        const bytes = new Uint8Array(Math.max(0, Math.min(length, opened.stats.size - offset)));
        let filled = 0;
        while (filled < bytes.length) {
          signal.throwIfAborted();
          const { bytesRead } = await opened.handle.read(bytes, filled, bytes.length - filled, offset + filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        return filled === bytes.length ? bytes : bytes.subarray(0, filled);
      } finally {
        await opened.handle.close();
      }
    },
  };

  /** The stats of the file as opened inside the folder; undefined when it is not there or not inside. */
  async function statInside(name: string): Promise<Stats | undefined> {
    const opened = await openNamed(name);
    await opened?.handle.close();
    return opened?.stats;
  }
}
