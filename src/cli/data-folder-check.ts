/**
 * The data folder checked before anything starts: a folder that is not there, or a file
 * given in its place (`npx shapeshot ./parks.geojson`), ends start-up with one sentence that
 * says what to give instead, rather than a raw ENOENT, or a server that claims to listen
 * and then dies.
 */
import { readdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataFolderSetting } from '../config/load.ts';
import { convertsToShapefile, isShapefilePart, ogr2ogrCommand } from './conversion-hint.ts';
import { shellWord } from './shell-word.ts';
import { StartUpProblem, USAGE_ERROR } from './start-up-problem.ts';

/** What is at the data folder's path, as far as serving it goes. */
export type FolderState = { kind: 'folder' } | { kind: 'missing' } | { kind: 'file' } | { kind: 'unreadable'; reason: string };

/** Looks at `path`: a folder counts only when this process may list it, as the catalog will. */
export function folderState(path: string): FolderState {
  try {
    if (!statSync(path).isDirectory()) return { kind: 'file' };
    readdirSync(path);
    return { kind: 'folder' };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: a path through a file (parks.geojson/data), which is no folder either.
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'unreadable', reason: code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? (error as Error).message) };
  }
}

/** Throws the StartUpProblem for a data folder that cannot be served; returns when it can. */
export function assertServableDataFolder(folder: string, setting: DataFolderSetting): void {
  const problem = dataFolderProblem(folder, folderState(folder), setting);
  if (problem !== undefined) throw new StartUpProblem(problem, USAGE_ERROR);
}

/**
 * The sentence for a data folder that cannot be served, or undefined for one that can. It
 * names the folder as the user wrote it, where it was set, and what to change there.
 */
export function dataFolderProblem(folder: string, state: FolderState, setting: DataFolderSetting): string | undefined {
  switch (state.kind) {
    case 'folder':
      return undefined;
    case 'missing':
      return `${subject(folder, setting)}: no such folder. ${remedy(setting)}`;
    case 'unreadable':
      return `${subject(folder, setting)}: this folder cannot be read (${state.reason}). ${remedy(setting)}`;
    case 'file':
      if (isShapefilePart(folder)) return `${subject(folder, setting)}: a file, not a folder. ${remedy(setting, dirname(folder))}`;
      if (convertsToShapefile(folder)) {
        return `${subject(folder, setting)}: a file, not a folder. ${remedy(setting)} (${ogr2ogrCommand(folder, EXAMPLE_FOLDER)} makes shapefiles of it)`;
      }
      return `${subject(folder, setting)}: a file, not a folder. ${remedy(setting)}`;
  }
}

/** The folder the remedies name when the user has none yet; the ogr2ogr command creates it. */
const EXAMPLE_FOLDER = './data';

function subject(folder: string, setting: DataFolderSetting): string {
  switch (setting.from) {
    case 'environment':
      return `SHAPESHOT_DATA=${folder}`;
    case 'file':
      return `${folder} (dataDir in ${setting.file})`;
    default:
      return folder;
  }
}

/** What to do: give `folder` when it is known (the one that holds the shapefile given), else the folder of one's own shapefiles. */
function remedy(setting: DataFolderSetting, folder?: string): string {
  const what = folder === undefined ? 'the folder that holds your .shp files' : 'the folder that holds it';
  const example = folder ?? EXAMPLE_FOLDER;
  switch (setting.from) {
    case 'environment':
      return `Set SHAPESHOT_DATA to ${what}, e.g. SHAPESHOT_DATA=${shellWord(example)}`;
    case 'file':
      return `Set dataDir in ${setting.file} to ${what}, e.g. "dataDir": ${JSON.stringify(example)}`;
    default:
      return `Give ${what}: npx shapeshot ${shellWord(example)}`;
  }
}
