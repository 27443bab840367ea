import { closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Position } from 'geojson';
import type { Geometry } from '../src/geometry/types.ts';
import { ShapeType } from '../src/shapefile/types.ts';
import { createShapefileWriter } from '../scripts/lib/shapefile-writer.ts';

/** The ESRI `.prj` of RD New, as Dutch GIS software writes it (no datum shift in it). */
const RD_NEW_PRJ =
  'PROJCS["RD_New",GEOGCS["GCS_Amersfoort",DATUM["D_Amersfoort",SPHEROID["Bessel_1841",6377397.155,299.1528128]],' +
  'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Double_Stereographic"],' +
  'PARAMETER["False_Easting",155000.0],PARAMETER["False_Northing",463000.0],PARAMETER["Central_Meridian",5.38763888888889],' +
  'PARAMETER["Scale_Factor",0.9999079],PARAMETER["Latitude_Of_Origin",52.15616055555555],UNIT["Meter",1.0]]';

/** A small deterministic generator, so every machine benchmarks the same file. */
function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An irregular ring around (cx, cy): a parcel's wobbly outline with `vertices` corners. */
function ring(random: () => number, cx: number, cy: number, radius: number, vertices: number): Position[] {
  const points: Position[] = [];
  for (let i = 0; i < vertices; i++) {
    const angle = (-2 * Math.PI * i) / vertices;
    const r = radius * (0.75 + 0.25 * random());
    points.push([Math.round((cx + r * Math.cos(angle)) * 1000) / 1000, Math.round((cy + r * Math.sin(angle)) * 1000) / 1000]);
  }
  points.push(points[0]);
  return points;
}

/**
 * Parcels on a grid over the Netherlands in RD New: about 100 vertices each on average,
 * every 10th with a hole (a courtyard), every 8th in two parts (a parcel split by a road).
 */
export function parcelGeometry(index: number, gridSide: number, random: () => number): Geometry {
  const cellWidth = 265_000 / gridSide;
  const cellHeight = 313_000 / gridSide;
  const cx = 13_000 + (index % gridSide + 0.5) * cellWidth;
  const cy = 306_000 + (Math.floor(index / gridSide) + 0.5) * cellHeight;
  const radius = Math.min(cellWidth, cellHeight) * 0.45;
  const vertices = 60 + Math.floor(random() * 80);
  if (index % 8 === 0) {
    return {
      type: 'MultiPolygon',
      coordinates: [
        [ring(random, cx - radius / 2, cy, radius / 2.2, vertices / 2)],
        [ring(random, cx + radius / 2, cy, radius / 2.2, vertices / 2)],
      ],
    };
  }
  const outer = ring(random, cx, cy, radius, vertices);
  return {
    type: 'Polygon',
    coordinates: index % 10 === 0 ? [outer, ring(random, cx, cy, radius * 0.3, 24).reverse()] : [outer],
  };
}

/**
 * Writes `count` parcels to `cacheDir/<count>/parcels.*` once and returns that folder;
 * later runs reuse it. Each count has its own folder, so a small run never overwrites a big one.
 */
export function ensureParcels(cacheDir: string, count: number, log: (line: string) => void): string {
  const dir = join(cacheDir, String(count));
  const done = join(dir, 'parcels.done');
  if (existsSync(done)) return dir;
  mkdirSync(dir, { recursive: true });
  log(`generating ${count} parcels in ${dir} (once; takes a few minutes)`);
  const random = mulberry32(28992);
  const gridSide = Math.ceil(Math.sqrt(count));
  const partial = join(dir, 'parcels-partial');
  const writer = createShapefileWriter(partial, {
    shapeType: ShapeType.Polygon,
    fields: [
      { name: 'ID', type: 'N', length: 10 },
      { name: 'NAAM', type: 'C', length: 24 },
    ],
    prj: RD_NEW_PRJ,
  });
  for (let i = 0; i < count; i++) {
    writer.write(parcelGeometry(i, gridSide, random), { ID: i, NAAM: `perceel ${i}` });
    if (i % 100_000 === 0 && i > 0) log(`  ${i} parcels`);
  }
  writer.close();
  for (const ext of ['shp', 'shx', 'dbf', 'prj', 'cpg']) renameSync(`${partial}.${ext}`, join(dir, `parcels.${ext}`));
  writeFileSync(done, new Date().toISOString());
  return dir;
}

/**
 * Reads the parcel files once, so that the operating system caches them and the runs measure
 * the server rather than the disk (a server answering from a large file soon has it cached).
 */
export function readThrough(dir: string): void {
  const buffer = Buffer.alloc(16 * 1024 * 1024);
  for (const ext of ['shp', 'shx', 'dbf']) {
    const fd = openSync(join(dir, `parcels.${ext}`), 'r');
    try {
      while (readSync(fd, buffer, 0, buffer.length, null) > 0);
    } finally {
      closeSync(fd);
    }
  }
}
