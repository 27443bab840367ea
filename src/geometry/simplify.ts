/**
 * Fewer vertices for the same picture, in costs that no arrangement of vertices can blow up:
 * Douglas–Peucker for `reduceTol` (in the shapefile's units), and the one linear pass that
 * drops vertices closer than a pixel before drawing.
 */
import { noCheckpoint, type Checkpoint } from '../cancellation/checkpoint.ts';
import { type Shape, vertexCount } from './shape.ts';

/** A ring needs four positions (a closed triangle) to enclose anything. */
export const MIN_RING_VERTICES = 4;
const MIN_LINE_VERTICES = 2;

/**
 * Douglas–Peucker runs over windows of at most this many vertices, each keeping its ends,
 * and may look at each vertex of a window at most WORK_PER_VERTEX times. Plain Douglas–
 * Peucker costs n² on a crafted line (a zigzag makes every split cut off one vertex);
 * ordinary lines cost about log2(WINDOW) looks a vertex. Once a window has used its share,
 * the vertices it has not settled are kept: a line that needs so many splits keeps most of
 * its vertices anyway. The cost is then at most WORK_PER_VERTEX looks a vertex, whatever
 * the data.
 */
const WINDOW = 4096;
const WORK_PER_VERTEX = 32;

/**
 * Marks in `kept` the vertices `first` … `last` (inclusive, of the interleaved `xy`) that
 * Douglas–Peucker keeps at `squaredTolerance`, never fewer than `minKept` (when there are
 * that many). Iterative, with an explicit stack, so millions of vertices cannot overflow
 * the call stack.
 */
function markKept(
  xy: Float64Array,
  first: number,
  last: number,
  squaredTolerance: number,
  minKept: number,
  kept: Uint8Array,
  checkpoint: Checkpoint,
): void {
  for (let windowStart = first; windowStart < last; windowStart += WINDOW) {
    const windowEnd = Math.min(last, windowStart + WINDOW);
    kept[windowStart] = kept[windowEnd] = 1;
    let work = WORK_PER_VERTEX * (windowEnd - windowStart);
    const stack = [windowStart, windowEnd];
    while (stack.length > 0) {
      const end = stack.pop()!;
      const start = stack.pop()!;
      work -= end - start;
      if (work < 0) {
        kept.fill(1, start, end);
        continue;
      }
      let farthest = -1;
      let farthestDistance = squaredTolerance;
      for (let i = start + 1; i < end; i++) {
        const distance = squaredSegmentDistanceAt(xy, i, start, end);
        if (distance > farthestDistance) {
          farthest = i;
          farthestDistance = distance;
        }
      }
      if (farthest < 0) continue;
      kept[farthest] = 1;
      stack.push(start, farthest, farthest, end);
    }
    checkpoint();
  }
  let keptCount = 0;
  for (let i = first; i <= last; i++) keptCount += kept[i];
  for (; keptCount < Math.min(minKept, last - first + 1); keptCount++) keepMostSignificant(xy, first, last, kept);
}

/** Keeps the dropped vertex farthest from the segment that replaced it. */
function keepMostSignificant(xy: Float64Array, first: number, last: number, kept: Uint8Array): void {
  let best = -1;
  let bestDistance = -1;
  let previousKept = first;
  for (let i = first + 1; i <= last; i++) {
    if (!kept[i]) continue;
    for (let j = previousKept + 1; j < i; j++) {
      const distance = squaredSegmentDistanceAt(xy, j, previousKept, i);
      if (distance > bestDistance) {
        best = j;
        bestDistance = distance;
      }
    }
    previousKept = i;
  }
  kept[best] = 1;
}

/**
 * Douglas–Peucker simplification of every line and ring of `shape`, `tolerance` in its own
 * units; points are left alone, and 0 returns `shape` itself. Line ends are kept, and a
 * ring keeps at least a closed triangle so that a small polygon does not vanish.
 */
export function simplifyShape(shape: Shape, tolerance: number, checkpoint: Checkpoint = noCheckpoint): Shape {
  if (!(tolerance > 0) || shape.kind === 'points') return shape;
  const minKept = shape.kind === 'polygons' ? MIN_RING_VERTICES : MIN_LINE_VERTICES;
  const kept = new Uint8Array(vertexCount(shape));
  const { parts } = shape;
  for (let part = 0; part < parts.length - 1; part++) {
    const first = parts[part];
    const last = parts[part + 1] - 1;
    if (last - first < 2) kept.fill(1, first, last + 1);
    else markKept(shape.xy, first, last, tolerance * tolerance, minKept, kept, checkpoint);
  }
  return keepMarked(shape, kept);
}

/**
 * Drops every vertex of a line or ring that lies within `tolerance` (on both axes) of the
 * last one kept; each part keeps its first and last vertex. One pass, linear in the
 * vertices whatever their arrangement; points are left alone.
 */
export function dropNearVertices(shape: Shape, tolerance: number, checkpoint: Checkpoint = noCheckpoint): Shape {
  if (shape.kind === 'points') return shape;
  const kept = new Uint8Array(vertexCount(shape));
  const { xy, parts } = shape;
  for (let part = 0; part < parts.length - 1; part++) {
    const last = parts[part + 1] - 1;
    let keptX = NaN;
    let keptY = NaN;
    for (let i = parts[part]; i <= last; i++) {
      const x = xy[2 * i];
      const y = xy[2 * i + 1];
      if (i === last || !(Math.abs(x - keptX) < tolerance && Math.abs(y - keptY) < tolerance)) {
        kept[i] = 1;
        keptX = x;
        keptY = y;
      }
    }
    if ((part & 0x3ff) === 0) checkpoint();
  }
  return keepMarked(shape, kept);
}

/** The shape with only the vertices marked in `kept`; parts and polygons keep their places. */
function keepMarked(shape: Shape, kept: Uint8Array): Shape {
  let count = 0;
  for (let i = 0; i < kept.length; i++) count += kept[i];
  if (count === kept.length) return shape;
  const xy = new Float64Array(2 * count);
  const parts = new Uint32Array(shape.parts.length);
  let written = 0;
  for (let part = 0; part < shape.parts.length - 1; part++) {
    parts[part] = written;
    for (let i = shape.parts[part]; i < shape.parts[part + 1]; i++) {
      if (!kept[i]) continue;
      xy[2 * written] = shape.xy[2 * i];
      xy[2 * written + 1] = shape.xy[2 * i + 1];
      written++;
    }
  }
  parts[parts.length - 1] = written;
  return { ...shape, xy, parts };
}

/** Squared distance from vertex p to the segment from vertex a to vertex b, all of `xy`. */
function squaredSegmentDistanceAt(xy: Float64Array, p: number, a: number, b: number): number {
  const px = xy[2 * p];
  const py = xy[2 * p + 1];
  const ax = xy[2 * a];
  const ay = xy[2 * a + 1];
  const bx = xy[2 * b];
  const by = xy[2 * b + 1];
  let x = ax;
  let y = ay;
  const dx = bx - ax;
  const dy = by - ay;
  if (dx !== 0 || dy !== 0) {
    const t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy);
    if (t > 1) {
      x = bx;
      y = by;
    } else if (t > 0) {
      x += dx * t;
      y += dy * t;
    }
  }
  return (px - x) ** 2 + (py - y) ** 2;
}
