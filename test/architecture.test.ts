import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The house rules that keep the code navigable, read from the sources' import statements
 * (type-only imports included): plugins see shapeshot only through the SDK, the core does
 * not lean on the SDK, a folder with one entry is entered only there, and no module reaches
 * itself again through its imports.
 */
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SDK_ENTRY = 'src/sdk/plugin.ts';
/** Folders whose other files are their own business: the rest of the code enters them through their index.ts alone. */
const FOLDERS_WITH_ONE_ENTRY = ['src/filter/', 'src/geometry/rings/'];
/** Static and dynamic imports, imports for their side effects, and modules started as workers (new URL('./x.ts', import.meta.url)). */
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\bnew URL\(\s*['"](\.[^'"]+\.[jt]s)['"]\s*,\s*import\.meta\.url/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/** The files of ours that `file` imports (relative specifiers only; packages are not ours). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(IMPORT)]
    .map((match) => match[1] ?? match[2] ?? match[3] ?? match[4])
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(ROOT, resolve(ROOT, dirname(file), specifier)));
}

const files = [...sourceFiles('src'), ...sourceFiles('plugins')];
const graph = new Map(files.map((file) => [file, importsOf(file)]));

describe('the import graph', () => {
  it('resolves every relative import to a file of ours', () => {
    const missing = [...graph].flatMap(([file, imports]) => imports.filter((target) => !graph.has(target)).map((target) => `${file} -> ${target}`));
    expect(missing).toEqual([]);
  });

  it('lets plugins import nothing of src/ but the SDK, and no other plugin', () => {
    const strays = [...graph]
      .filter(([file]) => file.startsWith('plugins/'))
      .flatMap(([file, imports]) => {
        const ownFolder = file.split('/').slice(0, 2).join('/') + '/';
        return imports.filter((target) => target !== SDK_ENTRY && !target.startsWith(ownFolder)).map((target) => `${file} -> ${target}`);
      });
    expect(strays).toEqual([]);
  });

  it('lets nothing in src/ import a plugin', () => {
    const strays = [...graph]
      .filter(([file]) => file.startsWith('src/'))
      .flatMap(([file, imports]) => imports.filter((target) => target.startsWith('plugins/')).map((target) => `${file} -> ${target}`));
    expect(strays).toEqual([]);
  });

  it('keeps the core that reads and holds shapes (geometry, shapefile) free of the plugin SDK: the SDK re-exports the core, not the other way', () => {
    const strays = [...graph]
      .filter(([file]) => file.startsWith('src/geometry/') || file.startsWith('src/shapefile/'))
      .flatMap(([file, imports]) => imports.filter((target) => target.startsWith('src/sdk/')).map((target) => `${file} -> ${target}`));
    expect(strays).toEqual([]);
  });

  it('enters a folder with one entry only through its index.ts', () => {
    const strays = [...graph].flatMap(([file, imports]) =>
      imports
        .filter((target) =>
          FOLDERS_WITH_ONE_ENTRY.some((folder) => target.startsWith(folder) && !file.startsWith(folder) && target !== `${folder}index.ts`),
        )
        .map((target) => `${file} -> ${target}`),
    );
    expect(strays).toEqual([]);
  });

  it('has no circle', () => {
    const circles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const path: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'visiting');
      path.push(file);
      for (const target of graph.get(file) ?? []) {
        if (state.get(target) === 'visiting') circles.push([...path.slice(path.indexOf(target)), target].join(' -> '));
        else if (!state.has(target)) visit(target);
      }
      path.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(circles).toEqual([]);
  });
});
