import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The house rules that keep the code navigable, read from the sources' import statements
 * (type-only imports included): plugins see shapeshot only through the SDK, the core does
 * not lean on the SDK, a folder with one entry is entered only there, no module reaches itself
 * again through its imports, and the folders stand in layers: each imports only folders below it.
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

/**
 * The layers of the house, lowest first: a folder of src/ (with its subfolders), or a file
 * at its top, imports only what stands before it here. A new folder takes the place that
 * says what it may use; an import that would run up this list means a piece of code sits in
 * the wrong folder, or a low helper waits to be moved down.
 */
const LAYERS = [
  // Foundations: they import nothing of ours (structures/ only how work stays stoppable).
  'src/cancellation/',
  'src/errors.ts',
  'src/xml-text.ts',
  'src/stages.ts',
  'src/module-file.ts',
  'src/structures/',
  'src/config/',
  'src/plugin-contract/',
  // Shapes: held, read from files, selected, projected, turned into SVG and pixels.
  'src/geometry/',
  'src/shapefile/',
  // Where shapefiles are read from by byte ranges: the local folder (by shapefile/'s rules), HTTP, S3.
  'src/sources/',
  'src/projection/',
  'src/map/',
  'src/svg/',
  'src/text/',
  'src/labels/',
  'src/raster/',
  'src/hotspots/',
  'src/filter/',
  'src/thematic/',
  'src/legend/',
  // A request's vocabulary: its parameters, the themes they name, the envelope of its answer.
  'src/params/',
  'src/themes/',
  'src/envelope/',
  // Work off the event loop: the worker pool, what every job shares, the drawing jobs and
  // /ogc's feature jobs, the basemap plugins and the SDK they are written against (it
  // re-exports parts of everything above), and the job table that types both sides of a job.
  'src/workers/',
  'src/job-context/',
  'src/drawing/',
  'src/features/',
  'src/basemap/',
  'src/sdk/',
  'plugins/',
  'src/jobs/',
  // Serving HTTP: keys, the request's frame, the operations, then what composes them.
  'src/auth/',
  'src/http/',
  'src/operations/',
  'src/caching/',
  'src/metrics/',
  'src/app-services.ts',
  'src/health/',
  'src/playground/',
  'src/ogc/',
  'src/openapi/',
  'src/routes/',
  'src/app.ts',
  // Start-up: the command line, the seam each runtime fills, the entry points that build it all.
  'src/cli/',
  'src/runtime/',
  'src/server/',
];

/** What the folder rules place: a folder of src/ with all below it, a file at src/'s top, or plugins/ as one. */
function unitOf(file: string): string {
  const [top, folder, ...rest] = file.split('/');
  if (top === 'plugins') return 'plugins/';
  return rest.length > 0 ? `${top}/${folder}/` : file;
}

/** Which unit imports which, each arrow with the file imports that draw it. */
const unitImports = new Map<string, Map<string, string[]>>();
for (const [file, imports] of graph) {
  const from = unitOf(file);
  const arrows = unitImports.get(from) ?? new Map<string, string[]>();
  unitImports.set(from, arrows);
  for (const target of imports) {
    const to = unitOf(target);
    if (to !== from) arrows.set(to, [...(arrows.get(to) ?? []), `${file} -> ${target}`]);
  }
}

/** The units that reach each other through their imports (Tarjan's strongly connected components), two or more at a time. */
function knots(): string[][] {
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (unit: string) => {
    index.set(unit, index.size);
    lowest.set(unit, index.get(unit)!);
    stack.push(unit);
    for (const target of unitImports.get(unit)?.keys() ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowest.set(unit, Math.min(lowest.get(unit)!, lowest.get(target)!));
      } else if (stack.includes(target)) {
        lowest.set(unit, Math.min(lowest.get(unit)!, index.get(target)!));
      }
    }
    if (lowest.get(unit) !== index.get(unit)) return;
    const knot = stack.splice(stack.indexOf(unit));
    if (knot.length > 1) found.push(knot.sort());
  };
  for (const unit of unitImports.keys()) if (!index.has(unit)) visit(unit);
  return found;
}

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

describe('the folders', () => {
  it("keep the jobs of images and maps (drawing/) and /ogc's (features/) apart: neither imports the other", () => {
    const crossings = [...unitImports]
      .filter(([from]) => from === 'src/drawing/' || from === 'src/features/')
      .flatMap(([from, arrows]) => [...arrows].filter(([to]) => to !== from && (to === 'src/drawing/' || to === 'src/features/')).flatMap(([, imports]) => imports));
    expect(crossings).toEqual([]);
  });

  it('import each other in no loop', () => {
    // Each knot with the imports that tie it, one file import for each arrow inside it.
    const loops = knots().map((knot) =>
      knot.flatMap((from) => knot.filter((to) => unitImports.get(from)?.has(to)).map((to) => `${from} -> ${to} (${unitImports.get(from)!.get(to)![0]})`)),
    );
    expect(loops).toEqual([]);
  });

  it('each have one place in the layers', () => {
    const units = new Set(unitImports.keys());
    const unplaced = [...units].filter((unit) => !LAYERS.includes(unit)).map((unit) => `${unit} stands in no layer`);
    const stale = LAYERS.filter((unit) => !units.has(unit)).map((unit) => `${unit} is no folder or file of ours`);
    const twice = LAYERS.filter((unit, i) => LAYERS.indexOf(unit) !== i).map((unit) => `${unit} stands twice`);
    expect([...unplaced, ...stale, ...twice]).toEqual([]);
  });

  it('import only folders below them in the layers', () => {
    const upward = [...unitImports].flatMap(([from, arrows]) =>
      [...arrows]
        .filter(([to]) => LAYERS.includes(from) && LAYERS.includes(to) && LAYERS.indexOf(to) > LAYERS.indexOf(from))
        .flatMap(([, imports]) => imports),
    );
    expect(upward).toEqual([]);
  });

  it("of src/ import the contract the SDK publishes (plugin-contract/), never the SDK's entry, which is the plugins' alone", () => {
    const strays = [...graph]
      .filter(([file]) => file.startsWith('src/') && !file.startsWith('src/sdk/'))
      .flatMap(([file, imports]) => imports.filter((target) => target.startsWith('src/sdk/')).map((target) => `${file} -> ${target}`));
    expect(strays).toEqual([]);
  });
});
