/**
 * The big layers of issue 28 ("Big layers drawn right"): polygons, lines and points by the
 * 10,000, 100,000 and (polygons and points) 1,000,000, written by GDAL's ogr2ogr (from CSV
 * with WKT that the test generates) in EPSG:3857, each feature with its position in the file
 * as the numeric field `v`, so that `where=v < K` selects K features scattered over the
 * whole layer (big-layers-writer.ts says what the features are).
 *
 * Written once per machine and generator: under os.tmpdir(), in a folder keyed by a digest
 * of the generator's source and of GDAL's version (another version of either writes afresh,
 * and the folders of other versions are removed), each layer by one process at a time under
 * flock(1) (vitest runs test files in parallel forks; the kernel drops the lock of a process
 * that dies), in a process of its own (big-layers-writer.ts) and moved into the shared data
 * folder only once complete. The first test file that needs a layer pays for it; the others,
 * and later runs, find it made.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BIG_LAYERS } from './big-layers-writer.ts';

const run = promisify(execFile);

export { BIG_LAYERS, LAYOUT, type BigLayer, type LayerKind } from './big-layers-writer.ts';

const WRITER = fileURLToPath(new URL('./big-layers-writer.ts', import.meta.url));
const ROOT_PREFIX = 'shapeshot-big-layers-';

export interface LayerMaking {
  /** Seconds it took to write the layer (CSV generated and ogr2ogr), when it was written. */
  seconds: number;
  /** Whether this call wrote it (false: it was there already, made by another test file or an earlier run). */
  madeNow: boolean;
}

let rootPromise: Promise<string> | undefined;

/** The folder of this generator's layers (its `data` subfolder is the data folder), made once. */
export function bigLayersRoot(): Promise<string> {
  rootPromise ??= (async () => {
    const { stdout: gdalVersion } = await run('ogr2ogr', ['--version']);
    const digest = createHash('sha256');
    digest.update(readFileSync(WRITER));
    digest.update(gdalVersion);
    const name = `${ROOT_PREFIX}${digest.digest('hex').slice(0, 12)}`;
    const root = join(tmpdir(), name);
    if (!existsSync(root)) {
      for (const other of readdirSync(tmpdir())) if (other.startsWith(ROOT_PREFIX) && other !== name) rmSync(join(tmpdir(), other), { recursive: true, force: true });
    }
    mkdirSync(join(root, 'data'), { recursive: true });
    return root;
  })();
  return rootPromise;
}

/**
 * The data folder holding the layers named, each written (or found written) by now, and how
 * long each took to write: as many written at once as the machine has cores (ogr2ogr uses one).
 */
export async function bigLayers(names: readonly string[]): Promise<{ dataDir: string; making: Record<string, LayerMaking> }> {
  const root = await bigLayersRoot();
  const making: Record<string, LayerMaking> = {};
  const queue = [...names];
  const writeNext = async (): Promise<void> => {
    const name = queue.shift();
    if (name === undefined) return;
    if (!BIG_LAYERS[name]) throw new Error(`no big layer is named '${name}'`);
    const marker = join(root, 'made', `${name}.json`);
    let madeNow = false;
    if (!existsSync(marker)) {
      // The writer says so when it wrote the layer; it does nothing when another process did while this one waited for the lock.
      const { stdout } = await run('flock', [join(root, `${name}.lock`), process.execPath, '--import', 'tsx', WRITER, name, root], { maxBuffer: 1 << 20 });
      madeNow = stdout.includes(`wrote ${name}`);
    }
    making[name] = { ...(JSON.parse(readFileSync(marker, 'utf8')) as Omit<LayerMaking, 'madeNow'>), madeNow };
    return writeNext();
  };
  await Promise.all(Array.from({ length: availableParallelism() }, writeNext));
  return { dataDir: join(root, 'data'), making };
}

/** A layer's path (…/NAME.shp) in the data folder. */
export async function layerPath(name: string): Promise<string> {
  return join(await bigLayersRoot(), 'data', `${name}.shp`);
}

export interface Extent {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}

/** The layer's extent as GDAL reads it (`ogrinfo -so -al`: the .shp header's bounding box). */
export async function layerExtent(name: string): Promise<Extent> {
  const { stdout } = await run('ogrinfo', ['-so', '-al', await layerPath(name)]);
  const match = /^Extent: \(([-\d.e+]+), ([-\d.e+]+)\) - \(([-\d.e+]+), ([-\d.e+]+)\)$/m.exec(stdout);
  if (!match) throw new Error(`ogrinfo printed no extent for ${name}:\n${stdout}`);
  const [xmin, ymin, xmax, ymax] = match.slice(1).map(Number);
  return { xmin, ymin, xmax, ymax };
}

/**
 * The extent and count of the features `where` (an SQL condition over `v`, as CQL2 writes it
 * too) selects, as GDAL works them out (SQLite dialect: OGR SQL's layer answers the whole
 * layer's extent whatever its WHERE).
 */
export async function selectionExtent(name: string, where: string): Promise<Extent & { count: number }> {
  const sql =
    'SELECT MIN(MbrMinX(geometry)) AS xmin, MIN(MbrMinY(geometry)) AS ymin, MAX(MbrMaxX(geometry)) AS xmax, ' +
    `MAX(MbrMaxY(geometry)) AS ymax, COUNT(*) AS n FROM "${name}" WHERE ${where}`;
  const { stdout } = await run('ogrinfo', ['-q', '-dialect', 'SQLite', '-sql', sql, await layerPath(name)], { maxBuffer: 1 << 20 });
  const value = (field: string) => {
    const match = new RegExp(`^\\s*${field} \\(\\w+\\) = (\\S+)$`, 'm').exec(stdout);
    if (!match) throw new Error(`ogrinfo printed no ${field} for ${name} where ${where}:\n${stdout}`);
    return Number(match[1]);
  };
  return { xmin: value('xmin'), ymin: value('ymin'), xmax: value('xmax'), ymax: value('ymax'), count: value('n') };
}
