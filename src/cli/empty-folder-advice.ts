/**
 * A data folder without shapefiles starts (files added later are served without a
 * restart), but a newcomer who sees nothing must learn why before the server claims to
 * listen: the shapefiles sit one folder down, or the data is in another format, or the
 * folder is simply empty. Each gets the one thing to do.
 */
import { readdirSync } from 'node:fs';
import { groupFileSets } from '../shapefile/data-folder.ts';
import { convertsToShapefile, ogr2ogrCommand } from './conversion-hint.ts';
import { shellWord } from './shell-word.ts';

/** What a folder without shapefiles holds, as far as the advice goes. */
export interface FolderContents {
  /** Its files, by name, sorted. */
  files: string[];
  /** Its subfolders that hold shapefiles themselves, by name, sorted. */
  foldersWithShapefiles: string[];
}

/** Lists `folder` and each of its subfolders (one level down, not further); what cannot be read counts as empty. */
export function folderContents(folder: string): FolderContents {
  const contents: FolderContents = { files: [], foldersWithShapefiles: [] };
  for (const entry of listing(folder)) {
    if (entry.isFile()) contents.files.push(entry.name);
    const inside = `${folder}/${entry.name}`;
    if (entry.isDirectory() && groupFileSets(inside, listing(inside).filter((child) => child.isFile()).map((child) => child.name)).size > 0) {
      contents.foldersWithShapefiles.push(entry.name);
    }
  }
  contents.files.sort();
  contents.foldersWithShapefiles.sort();
  return contents;
}

function listing(folder: string) {
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** The sentence for a data folder that holds no shapefile, naming it as the user wrote it. */
export function emptyFolderAdvice(folder: string, contents: FolderContents): string {
  const [subfolder] = contents.foldersWithShapefiles;
  if (subfolder !== undefined) {
    return `${folder} holds no shapefiles, but its folder ${subfolder} does: npx shapeshot ${shellWord(`${withoutTrailingSlash(folder)}/${subfolder}`)}`;
  }
  const convertible = contents.files.find(convertsToShapefile);
  if (convertible !== undefined) {
    const source = `${withoutTrailingSlash(folder)}/${convertible}`;
    return `${folder} holds no shapefiles, but ${convertible} can become one: ${ogr2ogrCommand(source, folder)} writes it there, and it is served at once, without a restart`;
  }
  return `${folder} holds no shapefiles yet: copy each .shp there with its .shx, .dbf and .prj, and it is served at once, without a restart`;
}

function withoutTrailingSlash(folder: string): string {
  return folder.length > 1 ? folder.replace(/\/+$/, '') : folder;
}
