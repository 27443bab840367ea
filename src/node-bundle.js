/**
 * TypeScript on Node (README.md, "Runtimes"). Deno and Bun run our TypeScript modules as they
 * are; Node 20 cannot (no type stripping), and tsx's loader, which can, resolves and loads every
 * module through a hooks thread: most of a cold start's second went there (`BENCH_ONLY=cold npm
 * run bench`), and it does not reach worker threads at all. So in a clone, on Node, each
 * TypeScript module we start (the server's entry from start.js, each worker's entry, a
 * TypeScript plugin) is bundled by esbuild (the compiler tsx itself runs on) into one JavaScript
 * module. The bundle is kept in node_modules/.cache/shapeshot/ and used again while every file
 * it was made from is unchanged, so a start pays the compiler only after an edit.
 *
 * A bundle holds the packages it imports too: Node's loader spent another 350 ms of the server's
 * start, and 500 ms of each worker's, finding, reading and linking their hundreds of files one
 * by one. Only packages that load native or WebAssembly code from beside themselves stay
 * outside, imported from their own files. Every bundled file is told its own place
 * (`import.meta.url`, and a CommonJS module's `__dirname` and `__filename`), since modules find
 * what sits beside them (workers, plugins, pages, data) from it.
 * Plain JavaScript, because start.js needs it before anything can load TypeScript.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';

const PROJECT = new URL('../', import.meta.url);
const CACHE = new URL('node_modules/.cache/shapeshot/', PROJECT);
/** Raised when what a bundle holds changes shape, so that bundles made before are made again. */
const BUNDLE_FORMAT = 1;
/**
 * Stamped with every bundle's inputs: npm rewrites its lock on every install (a bundle points at
 * native packages' files by path), and the project's manifests and compiler settings decide how
 * imports resolve and compile.
 */
const ALWAYS_STAMPED = ['node_modules/.package-lock.json', 'package.json', 'tsconfig.json'];
/** A module asking where it is; a pattern, not the words, or this module's own bundled copy would have them replaced. */
const OWN_PLACE = /\bimport\.meta\.url\b/g;
const COMMONJS_PLACE = /\b__(dirname|filename)\b/;
/**
 * Packages that find native or WebAssembly code by a path from their own files, so are never
 * bundled. A new one shows as a build error naming a `.node` or `.wasm` file it cannot load.
 */
const NATIVE_PACKAGES = new Set(['esbuild', '@resvg/resvg-js', '@resvg/resvg-wasm', '@jsquash/jpeg']);
/** Marks the resolution the plugin asks esbuild for, so that it does not answer itself. */
const RESOLVING = Symbol('resolving');

/** @type {Map<string, Promise<URL>>} */
const bundles = new Map();

/**
 * A JavaScript module Node can import or start as a worker for the TypeScript module `entry`,
 * made once per process (and kept on disk across processes while its sources are unchanged).
 * @param {URL} entry
 * @returns {Promise<URL>}
 */
export function bundledForNode(entry) {
  let bundle = bundles.get(entry.href);
  if (bundle === undefined) {
    bundle = cachedOrBuilt(entry);
    bundles.set(entry.href, bundle);
  }
  return bundle;
}

/**
 * @param {URL} entry
 * @returns {Promise<URL>}
 */
async function cachedOrBuilt(entry) {
  const name = createHash('sha256').update(entry.href).digest('hex').slice(0, 16);
  const bundleFile = new URL(`${name}.mjs`, CACHE);
  const manifestFile = new URL(`${name}.json`, CACHE);
  if (isCurrent(manifestFile, bundleFile, entry)) return bundleFile;
  const { code, inputStamps } = await build(entry, bundleFile);
  const inMemory = new URL(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  try {
    mkdirSync(CACHE, { recursive: true });
    // Written aside and renamed into place: servers starting together may build the same bundle.
    writeAtomically(bundleFile, code);
    const manifest = { entry: entry.href, format: BUNDLE_FORMAT, node: process.versions.node, bundleBytes: Buffer.byteLength(code), inputs: inputStamps };
    writeAtomically(manifestFile, JSON.stringify(manifest));
    return bundleFile;
  } catch {
    // A read-only checkout: the bundle is held in memory only, and built again at the next start.
    return inMemory;
  }
}

/**
 * Whether the kept bundle is there, whole, and made from the files as they are now.
 * @param {URL} manifestFile
 * @param {URL} bundleFile
 * @param {URL} entry
 */
function isCurrent(manifestFile, bundleFile, entry) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  } catch {
    return false;
  }
  if (manifest?.entry !== entry.href || manifest.format !== BUNDLE_FORMAT || manifest.node !== process.versions.node) return false;
  if (typeof manifest.inputs !== 'object' || manifest.inputs === null) return false;
  if (statSync(bundleFile, { throwIfNoEntry: false })?.size !== manifest.bundleBytes) return false;
  const now = stamps(Object.keys(manifest.inputs));
  return Object.entries(manifest.inputs).every(([file, stamp]) => now[file] === stamp);
}

/**
 * Each file (relative to the project) as its modification time and size: what changes when it is edited.
 * @param {string[]} files
 * @returns {Record<string, string>}
 */
function stamps(files) {
  return Object.fromEntries(files.map((file) => [file, stampOf(fileURLToPath(new URL(file, PROJECT)))]));
}

/** @param {string} path */
function stampOf(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat === undefined ? 'absent' : `${stat.mtimeMs}:${stat.size}`;
}

/**
 * @param {URL} file
 * @param {string} text
 */
function writeAtomically(file, text) {
  // Every thread its own: drawing workers may bundle the same TypeScript plugin at once.
  const aside = new URL(`${file.href}.${process.pid}-${threadId}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(aside, text);
    renameSync(aside, file);
  } catch (error) {
    if (existsSync(aside)) rmSync(aside);
    throw error;
  }
}

/**
 * The bundle, and the stamps of the files it was made from. Each file is stamped before it is
 * read: one saved while the bundle is made is then newer than its stamp, and the next start
 * makes the bundle again rather than keep code the file no longer holds.
 * @param {URL} entry
 * @param {URL} bundleFile where the bundle will be, which its `require` resolves from
 * @returns {Promise<{ code: string, inputStamps: Record<string, string> }>}
 */
async function build(entry, bundleFile) {
  /** @type {Map<string, string>} */
  const stampedBeforeReading = new Map();
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new Error(`${fileURLToPath(entry)} is TypeScript, which Node runs only once it is compiled: compile it to JavaScript, or install esbuild.`);
  }
  const result = await esbuild.build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: fileURLToPath(PROJECT),
    // CommonJS modules bundled into an ES module still call require() for Node's own modules.
    banner: { js: `import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(${JSON.stringify(bundleFile.href)});` },
    plugins: [
      {
        name: 'native-packages-by-absolute-url',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, async ({ path, kind, resolveDir, pluginData }) => {
            if (path.startsWith('node:')) return { path, external: true };
            if (pluginData === RESOLVING) return undefined;
            if (!NATIVE_PACKAGES.has(packageOf(path))) return undefined;
            const resolved = await build.resolve(path, { kind, resolveDir, pluginData: RESOLVING });
            if (resolved.errors.length > 0) return { errors: resolved.errors };
            return { path: pathToFileURL(resolved.path).href, external: true };
          });
        },
      },
      {
        name: 'each-module-its-own-place',
        setup(build) {
          build.onLoad({ filter: /.*/, namespace: 'file' }, async ({ path }) => {
            stampedBeforeReading.set(path, stampOf(path));
            if (!/\.[cm]?[jt]s$/.test(path)) return undefined;
            const text = await readFile(path, 'utf8');
            const url = pathToFileURL(path).href;
            const asksOwnUrl = text.search(OWN_PLACE) >= 0;
            // A CommonJS module (one that never says import.meta) asking for its folder or file.
            const asksOwnPath = !asksOwnUrl && !path.endsWith('.mjs') && COMMONJS_PLACE.test(text);
            if (!asksOwnUrl && !asksOwnPath) return undefined;
            const contents = asksOwnUrl
              ? text.replace(OWN_PLACE, JSON.stringify(url))
              : `var __filename = ${JSON.stringify(path)}, __dirname = ${JSON.stringify(dirname(path))};\n${text}`;
            return { contents, loader: /\.[cm]?ts$/.test(path) ? 'ts' : 'js' };
          });
        },
      },
    ],
  }).catch((/** @type {{ errors?: { text: string, location?: { file: string, line: number } }[] }} */ error) => {
    const [first] = error.errors ?? [];
    const where = first?.location ? ` (${first.location.file}:${first.location.line})` : '';
    throw new Error(`cannot compile ${fileURLToPath(entry)}: ${first?.text ?? String(error)}${where}`);
  });
  const inputStamps = stamps(ALWAYS_STAMPED);
  for (const input of Object.keys(result.metafile.inputs)) {
    inputStamps[input] = stampedBeforeReading.get(fileURLToPath(new URL(input, PROJECT))) ?? stampOf(fileURLToPath(new URL(input, PROJECT)));
  }
  return { code: result.outputFiles[0].text, inputStamps };
}

/**
 * The package a bare import names: `@scope/name/sub` → `@scope/name`.
 * @param {string} specifier
 */
function packageOf(specifier) {
  const [first, second] = specifier.split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}
