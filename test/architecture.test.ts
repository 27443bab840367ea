import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The house rules that keep the code navigable, read from the sources' import statements
 * (type-only imports included): plugins see shapeshot only through the SDK, the core does
 * not lean on the SDK, a folder with one entry is entered only there, no module reaches itself
 * again through its imports, and the folders stand in layers: each imports only folders below it.
 * And the split between the threads (ARCHITECTURE.md, "Bird's-eye view"), read from what each
 * thread really loads (type-only imports left out): the main thread never loads what decodes,
 * reprojects or rasterizes, and the drawing workers never load the HTTP frame.
 */
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SDK_ENTRY = 'src/sdk/plugin.ts';
/** Folders whose other files are their own business: the rest of the code enters them through their index.ts alone. */
const FOLDERS_WITH_ONE_ENTRY = ['src/filter/', 'src/geometry/rings/'];
/** Code of others kept in src/ to be served as files (Swagger UI for /docs), never imported. */
const VENDORED = ['src/openapi/swagger-ui/'];
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string | { default: string }> };

/** How a module reaches another: it loads it (its values), names its types only (erased when compiled), or starts it as a worker thread. */
type ImportKind = 'value' | 'type' | 'worker';
/** One import: `target` is a file of ours (relative to the repository) or, when `ours` is false, a package by name (`proj4`, `@hono/node-server`, `node:fs`). */
interface Import {
  target: string;
  kind: ImportKind;
  ours: boolean;
}

/**
 * Every way a module names another, with the kind each one is: static imports and re-exports
 * (`import type`, `export type`, and lists whose every name is a `type` are types only),
 * imports for their side effects, dynamic `import()` and `createRequire(…)('x')` / `require('x')`
 * of a literal specifier, and modules started as workers (a worker pool's `entry: new URL('./x.ts',
 * import.meta.url)`, workers/worker-pool.ts). Comment lines are not read: a JSDoc
 * `{import('./x.js').T}` names a type.
 */
const IMPORTS = [
  { kind: 'static', pattern: /(?:^|\n)\s*(?:import|export)\b([^'"]*?)from\s*['"]([^'"]+)['"]/g },
  { kind: 'value', pattern: /(?:^|\n)\s*import\s*()['"]([^'"]+)['"]/g },
  { kind: 'value', pattern: /\bimport\(\s*()['"]([^'"]+)['"]\s*\)/g },
  { kind: 'value', pattern: /\b(?:require|createRequire\((?:[^()]|\([^()]*\))*\))\(\s*()['"]([^'"]+)['"]\s*\)/g },
  { kind: 'worker', pattern: /\bentry:\s*new URL\(\s*()['"](\.[^'"]+\.[jt]s)['"]\s*,\s*import\.meta\.url/g },
] as const;

/** Whether a static import's clause (what stands between `import`/`export` and `from`) names types only. */
function namesTypesOnly(clause: string): boolean {
  const trimmed = clause.trim();
  if (/^type\b/.test(trimmed)) return true;
  const names = /^\{([^}]*)\}$/.exec(trimmed)?.[1].split(',').map((name) => name.trim()).filter((name) => name !== '');
  return names !== undefined && names.length > 0 && names.every((name) => /^type\s/.test(name));
}

/**
 * The file of ours that a specifier of our own package's name stands for (`shapeshot/plugin`):
 * its entry in package.json's "exports", a file of the build, whose source is the same path
 * in src/ (dist/src/sdk/plugin.js is built from src/sdk/plugin.ts). A name the exports lack
 * stays as it is, which no file of ours is.
 */
function ownModule(specifier: string): string {
  const entry = PACKAGE.exports[`.${specifier.slice(PACKAGE.name.length)}`];
  const built = typeof entry === 'string' ? entry : entry?.default;
  if (built === undefined) return specifier;
  const source = built.replace(/^\.\/(?:dist\/)?/, '');
  const typescript = source.replace(/\.js$/, '.ts');
  return existsSync(join(ROOT, typescript)) ? typescript : source;
}

const packageName = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/** What `file`, whose text is `text`, imports, in the order it says so. */
function importsIn(file: string, text: string): Import[] {
  const code = text.replace(/^[ \t]*(?:\/\/|\/\*|\*).*$/gm, '');
  const found = IMPORTS.flatMap(({ kind, pattern }) =>
    [...code.matchAll(pattern)].map((match) => ({ at: match.index, clause: match[1], specifier: match[2], kind })),
  ).sort((a, b) => a.at - b.at);
  return found.map(({ clause, specifier, kind }): Import => {
    const importKind = kind === 'static' ? (namesTypesOnly(clause) ? 'type' : 'value') : kind;
    if (specifier.startsWith('.')) return { target: relative(ROOT, resolve(ROOT, dirname(file), specifier)), kind: importKind, ours: true };
    if (specifier === PACKAGE.name || specifier.startsWith(`${PACKAGE.name}/`)) return { target: ownModule(specifier), kind: importKind, ours: true };
    return { target: specifier.startsWith('node:') ? specifier : packageName(specifier), kind: importKind, ours: false };
  });
}

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((file) => !VENDORED.some((folder) => file.startsWith(folder)));
}

const files = [...sourceFiles('src'), ...sourceFiles('plugins')];
const imports = new Map(files.map((file) => [file, importsIn(file, readFileSync(join(ROOT, file), 'utf8'))]));
/** The files of ours each file imports, of every kind: the house's rules hold for types and workers too. */
const graph = new Map([...imports].map(([file, found]) => [file, found.filter(({ ours }) => ours).map(({ target }) => target)]));

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
  'src/node-bundle.js',
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
  'src/vector-tile/',
  'src/hotspots/',
  'src/filter/',
  'src/thematic/',
  'src/legend/',
  // A request's vocabulary: its parameters, the themes they name, the envelope of its answer.
  'src/params/',
  'src/themes/',
  'src/envelope/',
  'src/tiles/',
  // Work off the event loop: the worker pool, what every job shares, the drawing jobs and
  // /ogc's feature jobs, the basemap plugins and the SDK they are written against (it
  // re-exports parts of everything above), and the job table that types both sides of a job.
  'src/workers/',
  'src/job-context/',
  'src/drawing/',
  'src/ogc-jobs/',
  'src/basemap/',
  'src/sdk/',
  'plugins/',
  'src/jobs/',
  // Serving HTTP: keys, the request's frame, the operations, then what composes them.
  'src/auth/',
  // Where keys' limits are counted: this instance's memory, or Redis shared by instances.
  'src/limits/',
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
  it('resolves every import of ours (relative, or by our package name) to a file of ours', () => {
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
  it("keep the jobs of images and maps (drawing/) and /ogc's (ogc-jobs/) apart: neither imports the other", () => {
    const crossings = [...unitImports]
      .filter(([from]) => from === 'src/drawing/' || from === 'src/ogc-jobs/')
      .flatMap(([from, arrows]) => [...arrows].filter(([to]) => to !== from && (to === 'src/drawing/' || to === 'src/ogc-jobs/')).flatMap(([, imports]) => imports));
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

/**
 * Where each thread starts. The main thread: the server's entry points, and the built-in
 * basemap plugins, which basemap/registry.ts imports there by a name it builds (so no import
 * statement shows them). A worker: every module a worker pool is handed as its entry; what
 * only a worker loads is the worker's, not the main thread's.
 */
const MAIN_THREAD_ENTRIES = [
  'src/server/node.ts',
  'src/server/deno.ts',
  'src/server/bun.ts',
  'src/server/start.js',
  ...readdirSync(join(ROOT, 'plugins'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `plugins/${entry.name}/index.ts`),
];
const WORKER_ENTRIES = [...new Set([...imports.values()].flatMap((found) => found.filter(({ kind }) => kind === 'worker').map(({ target }) => target)))];
const DRAWING_WORKER = 'src/jobs/worker.ts';

/** What the main thread must never load: the record decoder, reprojection, text decoding of .dbf rows, rasterizing. */
const NOT_ON_THE_MAIN_THREAD = { files: ['src/shapefile/shp-record.ts'], packages: ['proj4', 'iconv-lite', '@resvg/resvg-js', '@resvg/resvg-wasm'] };

/**
 * Every module a thread loads from `entries`, files of ours and packages alike (a package's
 * own imports are its business), each with the chain of imports that loads it. Types are
 * erased and workers are other threads: neither is followed.
 */
function loadedFrom(entries: string[]): Map<string, string[]> {
  const chains = new Map(entries.map((entry) => [entry, [entry]]));
  const queue = [...entries];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const { target, kind, ours } of imports.get(file) ?? []) {
      if (kind !== 'value' || chains.has(target)) continue;
      chains.set(target, [...chains.get(file)!, target]);
      if (ours) queue.push(target);
    }
  }
  return chains;
}

describe('the threads', () => {
  it('are found where they start: the entries exist and a drawing worker is started', () => {
    expect(MAIN_THREAD_ENTRIES.filter((entry) => !imports.has(entry))).toEqual([]);
    expect(WORKER_ENTRIES).toContain(DRAWING_WORKER);
    expect(WORKER_ENTRIES.filter((entry) => !imports.has(entry))).toEqual([]);
  });

  it('keep what decodes records, reprojects, decodes text and rasterizes off the main thread', () => {
    const loaded = loadedFrom(MAIN_THREAD_ENTRIES);
    // The check sees the main thread's packages at all: the server loads Hono there.
    expect(loaded.has('hono')).toBe(true);
    const strays = [...NOT_ON_THE_MAIN_THREAD.files, ...NOT_ON_THE_MAIN_THREAD.packages].flatMap((module) => {
      const chain = loaded.get(module);
      return chain === undefined ? [] : [chain.join(' -> ')];
    });
    expect(strays).toEqual([]);
  });

  it('keep the HTTP frame (Hono, src/http/) off the workers', () => {
    const strays = WORKER_ENTRIES.flatMap((entry) =>
      [...loadedFrom([entry])]
        .filter(([module]) => module === 'hono' || module.startsWith('@hono/') || module.startsWith('src/http/'))
        .map(([, chain]) => chain.join(' -> ')),
    );
    expect(strays).toEqual([]);
    // The check sees the workers' packages at all: the drawing worker loads resvg.
    expect([...loadedFrom([DRAWING_WORKER]).keys()]).toContain('@resvg/resvg-js');
  });

  it('are read from every way a module loads another: a type-only import loads nothing, a worker is another thread', () => {
    const sample = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      "import { type C, type D } from './c.ts';",
      "import { e, type E } from './e.ts';",
      "export * from './f.ts';",
      "export type { G } from './g.ts';",
      "import './h.ts';",
      "const i = await import('./i.ts');",
      "/** @typedef {import('./j.ts').J} J */",
      "// import { k } from './k.ts';",
      "const l = createRequire(import.meta.url)('world-countries');",
      "const m = createRequire(import.meta.url).resolve('./m.wasm');",
      "const n = createWorkerPool({ entry: new URL('./n.ts', import.meta.url), workers: 1 });",
      "const o = existsSync(new URL('./o.ts', import.meta.url));",
      "import { definePlugin } from 'shapeshot/plugin';",
      "import { readFileSync } from 'node:fs';",
      "import { Resvg } from '@resvg/resvg-js/index.js';",
    ].join('\n');
    const read = importsIn('src/x/sample.ts', sample).map(({ target, kind, ours }) => `${kind} ${ours ? 'file' : 'package'} ${target}`);
    expect(read).toEqual([
      'value file src/x/a.ts',
      'type file src/x/b.ts',
      'type file src/x/c.ts',
      'value file src/x/e.ts',
      'value file src/x/f.ts',
      'type file src/x/g.ts',
      'value file src/x/h.ts',
      'value file src/x/i.ts',
      'value package world-countries',
      'worker file src/x/n.ts',
      `value file ${SDK_ENTRY}`,
      'value package node:fs',
      'value package @resvg/resvg-js',
    ]);
  });
});
