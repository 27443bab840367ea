/**
 * The reference a big picture's painted pixels are held to: which pixels of the picture's
 * frame the features touch, as GDAL reads them, and the IoU of the two.
 *
 * What "touched" means is GDAL's rasterizer with ALL_TOUCHED (`gdal_rasterize -at`: every
 * pixel a shape touches), which the rule for small polygons names. Polygons (filled, no
 * outline) are rasterized by gdal_rasterize itself. Strokes and point symbols reach beyond
 * their geometry: a round-capped, round-joined stroke of width w covers exactly the points
 * within w/2 of its line, a round symbol of radius r exactly those within r of its point.
 * Their pixels are found exactly here, from the vertices GDAL reads (ogr2ogr to CSV): a pixel
 * is touched when the distance from its square to a segment (or to the point) is at most the
 * reach. That is GDAL's ALL_TOUCHED of ST_Buffer(geometry, reach) without the buffer's
 * polygonal arcs, and it takes a second where gdal_rasterize over SpatiaLite's buffers took
 * 10–30 s for 100,000 lines or 150,000 points on two loaded cores; rasterizing the bare
 * geometry and dilating its pixels by a disk would be off by up to a pixel's diagonal around
 * every symbol.
 *
 * An anti-aliased painter does not paint every pixel a shape touches: resvg (tiny-skia)
 * finds a pixel's coverage from a 4 × 4 grid of samples, the outer ones 1/8 px in from its
 * edges, so an edge that cuts a pixel's corner at 45° must reach (1/8)·√2 ≈ 0.18 px in to
 * cover one; and our SVG writes coordinates to 0.1 px, which moves an edge by up to
 * 0.05·√2 ≈ 0.07 px. A shape that reaches less than SLIVER_PX (a quarter pixel) into a pixel
 * may leave it unpainted; on 10,000 squares of a few pixels those pixels are a sixth of what
 * ALL_TOUCHED burns (IoU 0.84 against it for a faithful drawing). So each reference has two
 * masks:
 * - `touched`: the pixels the shapes touch (buffered by their reach): what may be painted;
 * - `required`: the pixels the shapes pulled in by SLIVER_PX touch, and (polygons) the pixel
 *   of a point on each feature's surface (ST_PointOnSurface): what must be painted, every
 *   feature, however far below a pixel, at least where it lies;
 * and the IoU is |painted ∩ touched| / |painted ∪ required|: IoU against ALL_TOUCHED, with
 * the pixels a shape only grazes counting neither for nor against. Faithful drawings scored
 * 0.984–1.000 here; a blank one scores 0.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Extent } from './big-layers.ts';
import type { Frame } from './picture-frame.ts';
import { makeTempDir } from './temp-dir.ts';

const run = promisify(execFile);

/** Pixels: a shape reaching less than this into a pixel need not paint it (the first sample, and the SVG's rounding, above). */
export const SLIVER_PX = 0.25;

export interface Reference {
  /** 1 where a shape touches the pixel: may be painted. */
  touched: Uint8Array;
  /** 1 where a shape covers more than a sliver of the pixel, or a feature lies: must be painted. */
  required: Uint8Array;
}

export interface LayerSelection {
  /** The layer's .shp; its layer is named as the file. */
  shp: string;
  layer: string;
  /** An SQL condition on the layer's fields (`v < 5000`): only the features it selects. */
  where?: string;
}

/**
 * Filled polygons: gdal_rasterize -at of the polygons; and of the polygons buffered by
 * −SLIVER_PX, OR'd with that of their points on surface (rasterized apart: a UNION ALL whose
 * first rows are all empty buffers, as a million polygons far below a pixel give, comes out
 * of the SQLite dialect with no geometry column at all, and burns nothing).
 */
export async function polygonReference({ shp, layer, where }: LayerSelection, frame: Frame): Promise<Reference> {
  const from = `FROM "${layer}"${where ? ` WHERE ${where}` : ''}`;
  const [touched, pulledIn, pointsOnSurface] = await Promise.all([
    rasterize(shp, frame, `SELECT geometry ${from}`),
    rasterize(shp, frame, `SELECT ST_Buffer(geometry, ${-SLIVER_PX / frame.scale}) AS geometry ${from}`),
    rasterize(shp, frame, `SELECT ST_PointOnSurface(geometry) AS geometry ${from}`),
  ]);
  return { touched, required: pulledIn.map((value, i) => value | pointsOnSurface[i]) };
}

async function rasterize(shp: string, frame: Frame, sql: string): Promise<Uint8Array> {
  const out = join(makeTempDir('shapeshot-rasterize-'), 'mask.bin');
  await run('gdal_rasterize', [
    '-q', '-at', '-burn', '1', '-ot', 'Byte', '-of', 'ENVI', '-init', '0',
    '-te', String(frame.xmin), String(frame.ymin), String(frame.xmax), String(frame.ymax),
    '-ts', String(frame.width), String(frame.height),
    '-dialect', 'SQLite', '-sql', sql, shp, out,
  ]);
  const mask = new Uint8Array(readFileSync(out));
  if (mask.length !== frame.width * frame.height) throw new Error(`gdal_rasterize wrote ${mask.length} bytes for a ${frame.width} × ${frame.height} frame`);
  return mask;
}

/** Each selected feature's vertices (x0, y0, x1, y1, …) as GDAL reads them: points one pair each, lines their polyline. */
export async function readVertices({ shp, where }: LayerSelection): Promise<Float64Array[]> {
  const { stdout } = await run('ogr2ogr', ['-f', 'CSV', '/vsistdout/', shp, ...(where ? ['-where', where] : []), '-lco', 'GEOMETRY=AS_WKT'], {
    maxBuffer: 1 << 30,
  });
  const features: Float64Array[] = [];
  for (const line of stdout.split('\n').slice(1)) {
    const wkt = /^"([A-Z]+) \(([^)]*)\)"/.exec(line);
    if (!wkt) continue;
    features.push(Float64Array.from(wkt[2].split(/[ ,]/).map(Number)));
  }
  return features;
}

/** The bounding box of all the vertices. */
export function extentOfVertices(features: readonly Float64Array[]): Extent {
  const extent = { xmin: Infinity, ymin: Infinity, xmax: -Infinity, ymax: -Infinity };
  for (const xy of features) {
    for (let i = 0; i < xy.length; i += 2) {
      extent.xmin = Math.min(extent.xmin, xy[i]);
      extent.xmax = Math.max(extent.xmax, xy[i]);
      extent.ymin = Math.min(extent.ymin, xy[i + 1]);
      extent.ymax = Math.max(extent.ymax, xy[i + 1]);
    }
  }
  return extent;
}

/**
 * Round-capped strokes `reachPx` from each feature's polyline (a point: a symbol of that
 * radius), exactly: a pixel is touched when its square comes within reachPx of a segment,
 * required when within reachPx − SLIVER_PX.
 */
export function reachReference(features: readonly Float64Array[], frame: Frame, reachPx: number): Reference {
  const { width, height } = frame;
  const touched = new Uint8Array(width * height);
  const required = new Uint8Array(width * height);
  const inner = reachPx - SLIVER_PX;
  for (const xy of features) {
    const pixels = new Float64Array(xy.length);
    for (let i = 0; i < xy.length; i += 2) {
      pixels[i] = (xy[i] - frame.xmin) * frame.scale;
      pixels[i + 1] = (frame.ymax - xy[i + 1]) * frame.scale;
    }
    const last = Math.max(0, pixels.length - 4);
    for (let i = 0; i <= last; i += 2) {
      // A point is a segment of no length.
      const [ax, ay] = [pixels[i], pixels[i + 1]];
      const [bx, by] = pixels.length >= 4 ? [pixels[i + 2], pixels[i + 3]] : [ax, ay];
      const left = Math.max(0, Math.floor(Math.min(ax, bx) - reachPx));
      const right = Math.min(width - 1, Math.floor(Math.max(ax, bx) + reachPx));
      const top = Math.max(0, Math.floor(Math.min(ay, by) - reachPx));
      const bottom = Math.min(height - 1, Math.floor(Math.max(ay, by) + reachPx));
      for (let row = top; row <= bottom; row++) {
        for (let column = left; column <= right; column++) {
          const distance = segmentToSquare(ax, ay, bx, by, column, row);
          if (distance <= reachPx) touched[row * width + column] = 1;
          if (distance < inner) required[row * width + column] = 1;
        }
      }
    }
  }
  return { touched, required };
}

/** The distance from segment a–b to the pixel square [x, x + 1] × [y, y + 1] (0 when they meet). */
function segmentToSquare(ax: number, ay: number, bx: number, by: number, x: number, y: number): number {
  if (ax === bx && ay === by) return pointToSquare(ax, ay, x, y);
  if (segmentMeetsSquare(ax, ay, bx, by, x, y)) return 0;
  // Apart, two convex shapes are nearest at a vertex of one of them.
  return Math.min(
    pointToSquare(ax, ay, x, y),
    pointToSquare(bx, by, x, y),
    pointToSegment(x, y, ax, ay, bx, by),
    pointToSegment(x + 1, y, ax, ay, bx, by),
    pointToSegment(x, y + 1, ax, ay, bx, by),
    pointToSegment(x + 1, y + 1, ax, ay, bx, by),
  );
}

function pointToSquare(px: number, py: number, x: number, y: number): number {
  return Math.hypot(px - Math.max(x, Math.min(px, x + 1)), py - Math.max(y, Math.min(py, y + 1)));
}

function pointToSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

/** Whether segment a–b meets the closed square (Liang–Barsky clipping against its four sides). */
function segmentMeetsSquare(ax: number, ay: number, bx: number, by: number, x: number, y: number): boolean {
  const dx = bx - ax;
  const dy = by - ay;
  let enter = 0;
  let leave = 1;
  const clip = (p: number, q: number) => {
    if (p === 0) return q >= 0;
    const t = q / p;
    if (p < 0) enter = Math.max(enter, t);
    else leave = Math.min(leave, t);
    return enter <= leave;
  };
  return clip(-dx, ax - x) && clip(dx, x + 1 - ax) && clip(-dy, ay - y) && clip(dy, y + 1 - ay);
}

export interface Comparison {
  /** |painted ∩ touched| / |painted ∪ required|: the figure held to 0.95. */
  iou: number;
  /** Plain IoU against the touched pixels (ALL_TOUCHED alone), for the record. */
  iouTouched: number;
  painted: number;
  touched: number;
  required: number;
  /** Required pixels left unpainted (features missing, or shrunk), and painted pixels no shape touches (drawn where nothing is). */
  requiredUnpainted: number;
  paintedUntouched: number;
}

/** Compares a picture's painted mask (non-zero: painted) with a reference. */
export function compareWithReference(painted: Uint8Array, { touched, required }: Reference): Comparison {
  if (painted.length !== touched.length) throw new Error(`a mask of ${painted.length} pixels against a reference of ${touched.length}`);
  const count = { painted: 0, touched: 0, required: 0, paintedTouched: 0, paintedOrRequired: 0, paintedOrTouched: 0, requiredUnpainted: 0, paintedUntouched: 0 };
  for (let i = 0; i < painted.length; i++) {
    const p = painted[i] !== 0;
    const t = touched[i] !== 0;
    const r = required[i] !== 0;
    if (p) count.painted++;
    if (t) count.touched++;
    if (r) count.required++;
    if (p && t) count.paintedTouched++;
    if (p || r) count.paintedOrRequired++;
    if (p || t) count.paintedOrTouched++;
    if (r && !p) count.requiredUnpainted++;
    if (p && !t) count.paintedUntouched++;
  }
  return {
    iou: count.paintedOrRequired === 0 ? 1 : count.paintedTouched / count.paintedOrRequired,
    iouTouched: count.paintedOrTouched === 0 ? 1 : count.paintedTouched / count.paintedOrTouched,
    painted: count.painted,
    touched: count.touched,
    required: count.required,
    requiredUnpainted: count.requiredUnpainted,
    paintedUntouched: count.paintedUntouched,
  };
}
