/**
 * The tiles benchmark's data (bench/tiles.ts), made once in BENCH_DIR/tiles/ by the peer kit's
 * own tools, so that its figures stand beside the kit's: the 200,000-polygon RD New file and the
 * same generator's 2,000-polygon one (make-data.py, each with MapServer's .qix from shptree),
 * the kit's 5,000 random tiles (tools/make_tiles.py: z 12–16 over the Netherlands, seed 7, same
 * Python RNG) and those of them that hold a feature of the small file (bench/tiles-held.py).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Debian's Python: the one with the osgeo (python3-gdal) and numpy modules (a pyenv python3 has neither). */
export const PYTHON = '/usr/bin/python3';

/** Features of the big file (the kit's default) and of the small one. */
export const BIG_FEATURES = 200_000;
export const SMALL_FEATURES = 2_000;

/** The layer names both servers serve from `serveDir`. */
export const BIG_LAYER = 'big';
export const SMALL_LAYER = `big${SMALL_FEATURES}`;

export interface Tile {
  z: number;
  x: number;
  y: number;
}

/** What tiles-held.py counted: tiles of each list, and the mean features (or record boxes) a tile meets. */
export interface HeldCounts {
  tiles: number;
  held: number;
  smallFeaturesPerTile: number;
  smallFeaturesPerHeldTile: number;
  bigBoxesPerTile: number;
  bigBoxesPerHeldTile: number;
}

export interface TileData {
  /** Both files, as `big` (200,000) and `big2000` (2,000), with their .qix: our data folder and MapServer's SHAPEPATH. */
  serveDir: string;
  /** The kit's list. */
  tiles: Tile[];
  /** The tiles of the list that meet a feature of the small file. */
  heldTiles: Tile[];
  counts: HeldCounts;
}

const SHAPEFILE_PARTS = ['shp', 'shx', 'dbf', 'prj', 'cpg', 'qix'];
const HELD_SCRIPT = fileURLToPath(new URL('./tiles-held.py', import.meta.url));

export function ensureTileData(kitDir: string, dir: string, log: (line: string) => void): TileData {
  const bigDir = join(dir, String(BIG_FEATURES));
  const smallDir = join(dir, String(SMALL_FEATURES));
  generate(kitDir, bigDir, [], log);
  generate(kitDir, smallDir, ['--big', String(SMALL_FEATURES)], log);

  // Hard links, not symbolic ones: our data folder serves only files that lie inside it.
  const serveDir = join(dir, 'serve');
  rmSync(serveDir, { recursive: true, force: true });
  mkdirSync(serveDir, { recursive: true });
  for (const part of SHAPEFILE_PARTS) {
    linkSync(join(bigDir, `big.${part}`), join(serveDir, `${BIG_LAYER}.${part}`));
    linkSync(join(smallDir, `big.${part}`), join(serveDir, `${SMALL_LAYER}.${part}`));
  }

  const tilesFile = join(dir, 'tiles.txt');
  if (!existsSync(tilesFile)) execFileSync(PYTHON, [join(kitDir, 'tools', 'make_tiles.py'), tilesFile], { stdio: 'inherit' });
  const heldFile = join(dir, 'tiles-held.txt');
  const countsFile = join(dir, 'tiles-held.json');
  if (!existsSync(countsFile)) {
    log('tiles: finding the tiles that hold features of the small file (tiles-held.py)');
    const counts = execFileSync(PYTHON, [HELD_SCRIPT, tilesFile, join(smallDir, 'big.shp'), join(bigDir, 'big.shp'), heldFile], { encoding: 'utf8' });
    writeFileSync(countsFile, counts);
  }
  return {
    serveDir,
    tiles: readTiles(tilesFile),
    heldTiles: readTiles(heldFile),
    counts: JSON.parse(readFileSync(countsFile, 'utf8')) as HeldCounts,
  };
}

/** The kit's make-data.py into `out`, unless its file and .qix are there already (it rewrites its side files on every run). */
function generate(kitDir: string, out: string, args: string[], log: (line: string) => void): void {
  if (existsSync(join(out, 'big.done')) && existsSync(join(out, 'big.qix'))) return;
  log(`tiles: generating ${out} with the peer kit's make-data.py ${args.join(' ')} (a minute or two for 200,000 polygons)`);
  execFileSync(PYTHON, [join(kitDir, 'make-data.py'), '--out', out, ...args], { stdio: 'inherit' });
  if (!readdirSync(out).includes('big.qix')) throw new Error(`make-data.py wrote no ${join(out, 'big.qix')}: is shptree (mapserver-bin) installed?`);
}

function readTiles(file: string): Tile[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [z, x, y] = line.trim().split(/\s+/).map(Number);
      return { z, x, y };
    });
}
