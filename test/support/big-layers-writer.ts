/**
 * Writes one big layer (big-layers.ts) as its own process, under that layer's flock(1):
 * `node --import tsx big-layers-writer.ts NAME ROOT`. The features are generated as CSV (WKT
 * and `v`) straight into ogr2ogr's standard input, ogr2ogr writes the shapefile in EPSG:3857
 * into a staging folder, and the files are moved into ROOT/data; ROOT/made/NAME.json, written
 * last, says the layer is whole (and how long it took). A layer already made is left as it is.
 *
 * Each layer is deterministic (a seeded generator): the same name gives the same features.
 * Features fill cells of the active blocks of LAYOUT, the cells taken in a shuffled order, so
 * that `v < K` (v: the feature's position in the file) selects K features spread over every
 * active block:
 * - polygons: an axis-aligned square or a diamond (a square turned by 45°), 15–75 % of its
 *   cell across: at 1000 × 1000 pixels a few pixels for 10,000 of them, about a pixel for
 *   100,000 (some smaller), a fraction of a pixel for 1,000,000;
 * - lines: a polyline of three vertices, two steps of ½–1½ cells in random directions;
 * - points: one point anywhere in its cell.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type LayerKind = 'polygons' | 'lines' | 'points';

export interface BigLayer {
  /** The shapefile's name (its base name in the data folder). */
  name: string;
  kind: LayerKind;
  features: number;
}

/**
 * Polygons, lines and points of 10,000 and 100,000 features, and polygons and points of
 * 1,000,000: ogr2ogr takes 15–20 s (two cores, unloaded) to write a layer of a million
 * (shapelib's writer makes four system calls per record of the .dbf), and a million lines
 * would test nothing that a million polygons (the budget's walk, the where= scan, features
 * far below a pixel) and 100,000 lines (strokes at scale) do not.
 */
const LAYER_COUNTS: Record<LayerKind, number[]> = {
  polygons: [10_000, 100_000, 1_000_000],
  lines: [10_000, 100_000],
  points: [10_000, 100_000, 1_000_000],
};

const countName = (features: number) => (features >= 1_000_000 ? `${features / 1_000_000}m` : `${features / 1000}k`);

/** Every big layer, by name: polygons10k, polygons100k, polygons1m, lines10k, … */
export const BIG_LAYERS: Record<string, BigLayer> = Object.fromEntries(
  Object.entries(LAYER_COUNTS).flatMap(([kind, counts]) =>
    counts.map((features) => {
      const name = `${kind}${countName(features)}`;
      return [name, { name, kind: kind as LayerKind, features }];
    }),
  ),
);

/**
 * Where the layers lie, in EPSG:3857 metres: a 34 × 31 km area (in the Netherlands), its
 * corners on no round number, so that no edge of the layout falls on a pixel edge of any frame.
 */
export const LAYOUT = {
  x: 512_345.67,
  y: 6_789_012.34,
  width: 34_000,
  height: 31_000,
  /** The area is cut into blocks × blocks; features lie only in the active blocks (the corners are), so that pictures have empty places too. */
  blocks: 8,
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [name, root] = process.argv.slice(2);
  const layer = BIG_LAYERS[name];
  if (!layer || !root) throw new Error(`usage: big-layers-writer.ts NAME ROOT (NAME one of ${Object.keys(BIG_LAYERS).join(', ')})`);
  if (!existsSync(join(root, 'made', `${name}.json`))) {
    await writeLayer(layer, root);
    console.log(`wrote ${name}`);
  }
}

async function writeLayer(layer: BigLayer, root: string): Promise<void> {
  const staging = join(root, `staging-${layer.name}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const started = performance.now();
  const geometryType = { polygons: 'POLYGON', lines: 'LINESTRING', points: 'POINT' }[layer.kind];
  // The CSV goes to ogr2ogr as it is made (its types detected from its first megabyte: v is an Integer), so both run at once.
  const ogr2ogr = spawn(
    'ogr2ogr',
    [
      '-f', 'ESRI Shapefile', join(staging, `${layer.name}.shp`), 'CSV:/vsistdin/',
      '-a_srs', 'EPSG:3857', '-nlt', geometryType, '-nln', layer.name,
      '-oo', 'GEOM_POSSIBLE_NAMES=WKT', '-oo', 'KEEP_GEOM_COLUMNS=NO', '-oo', 'AUTODETECT_TYPE=YES',
    ],
    { stdio: ['pipe', 'ignore', 'inherit'] },
  );
  const exited = new Promise<number | null>((resolve, reject) => ogr2ogr.once('exit', resolve).once('error', reject));
  for (const chunk of csvChunks(layer)) {
    if (!ogr2ogr.stdin!.write(chunk)) await once(ogr2ogr.stdin!, 'drain');
  }
  ogr2ogr.stdin!.end();
  const status = await exited;
  if (status !== 0) throw new Error(`ogr2ogr exited with ${status} writing ${layer.name}`);
  for (const file of readdirSync(staging)) renameSync(join(staging, file), join(root, 'data', file));
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(join(root, 'made'), { recursive: true });
  writeFileSync(join(root, 'made', `${layer.name}.json`), JSON.stringify({ seconds: (performance.now() - started) / 1000 }));
}

/** The layer as CSV (WKT, v), in chunks of about a megabyte. */
function* csvChunks(layer: BigLayer): Generator<string> {
  const random = mulberry32(hashText(layer.name));
  const { blocks } = LAYOUT;
  const active: [number, number][] = [];
  const blockRandom = mulberry32(28);
  for (let row = 0; row < blocks; row++) {
    for (let column = 0; column < blocks; column++) {
      const corner = (row === 0 || row === blocks - 1) && (column === 0 || column === blocks - 1);
      if (blockRandom() < 0.55 || corner) active.push([column, row]);
    }
  }
  const perSide = Math.ceil(Math.sqrt(layer.features / active.length));
  const cellsPerBlock = perSide * perSide;
  const order = shuffled(active.length * cellsPerBlock, random);
  const blockWidth = LAYOUT.width / blocks;
  const blockHeight = LAYOUT.height / blocks;
  const cellWidth = blockWidth / perSide;
  const cellHeight = blockHeight / perSide;
  const cellSide = Math.min(cellWidth, cellHeight);
  const xy = (x: number, y: number) => `${x.toFixed(2)} ${y.toFixed(2)}`;

  let chunk = 'WKT,v\n';
  for (let v = 0; v < layer.features; v++) {
    const cell = order[v];
    const [blockColumn, blockRow] = active[Math.floor(cell / cellsPerBlock)];
    const inBlock = cell % cellsPerBlock;
    const x0 = LAYOUT.x + blockColumn * blockWidth + (inBlock % perSide) * cellWidth;
    const y0 = LAYOUT.y + blockRow * blockHeight + Math.floor(inBlock / perSide) * cellHeight;
    let wkt: string;
    switch (layer.kind) {
      case 'polygons': {
        const side = cellSide * (0.15 + 0.6 * random());
        const left = x0 + (cellWidth - side) * random();
        const bottom = y0 + (cellHeight - side) * random();
        const [right, top, midX, midY] = [left + side, bottom + side, left + side / 2, bottom + side / 2];
        // Outer rings clockwise, as the shapefile stores them.
        wkt =
          random() < 0.5
            ? `POLYGON ((${xy(left, bottom)},${xy(left, top)},${xy(right, top)},${xy(right, bottom)},${xy(left, bottom)}))`
            : `POLYGON ((${xy(midX, bottom)},${xy(left, midY)},${xy(midX, top)},${xy(right, midY)},${xy(midX, bottom)}))`;
        break;
      }
      case 'lines': {
        let [x, y] = [x0 + cellWidth * random(), y0 + cellHeight * random()];
        const vertices = [xy(x, y)];
        for (let step = 0; step < 2; step++) {
          const angle = 2 * Math.PI * random();
          const length = cellSide * (0.5 + random());
          x += length * Math.cos(angle);
          y += length * Math.sin(angle);
          vertices.push(xy(x, y));
        }
        wkt = `LINESTRING (${vertices.join(',')})`;
        break;
      }
      case 'points':
        wkt = `POINT (${xy(x0 + cellWidth * random(), y0 + cellHeight * random())})`;
    }
    chunk += `"${wkt}",${v}\n`;
    if (chunk.length > 1 << 20) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

/** 0, 1, …, n − 1 in a random order (Fisher–Yates). */
function shuffled(n: number, random: () => number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** A small seeded generator of numbers in [0, 1). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hashText(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return hash >>> 0;
}
