import type { Position } from 'geojson';
import { mapPositionLists } from './map-coordinates.ts';
import type { Geometry } from './types.ts';

/** A ring needs four positions (a closed triangle) to enclose anything. */
const MIN_RING_POSITIONS = 4;

/**
 * Douglas–Peucker simplification of lines and polygon rings, `tolerance` in the geometry's
 * own units. Points are untouched; 0 returns `geometry` itself. Line ends are kept, and a
 * ring keeps at least a closed triangle so a small polygon does not vanish.
 */
export function simplifyGeometry(geometry: Geometry, tolerance: number): Geometry {
  if (!(tolerance > 0)) return geometry;
  const squared = tolerance * tolerance;
  return mapPositionLists(geometry, (positions, kind) =>
    kind === 'points' ? positions : simplifyPositions(positions, squared, kind === 'ring' ? MIN_RING_POSITIONS : 2),
  );
}

/**
 * The positions Douglas–Peucker keeps, never fewer than `minKept` (when there are that
 * many). Iterative, with an explicit stack, so rings of millions of vertices cannot
 * overflow the call stack.
 */
export function simplifyPositions(positions: Position[], squaredTolerance: number, minKept: number): Position[] {
  const last = positions.length - 1;
  if (last < 2) return positions;
  const kept = new Uint8Array(positions.length);
  kept[0] = kept[last] = 1;
  let keptCount = 2;
  const stack = [0, last];
  while (stack.length > 0) {
    const end = stack.pop()!;
    const start = stack.pop()!;
    let farthest = -1;
    let farthestDistance = squaredTolerance;
    for (let i = start + 1; i < end; i++) {
      const distance = squaredSegmentDistance(positions[i], positions[start], positions[end]);
      if (distance > farthestDistance) {
        farthest = i;
        farthestDistance = distance;
      }
    }
    if (farthest < 0) continue;
    kept[farthest] = 1;
    keptCount++;
    stack.push(start, farthest, farthest, end);
  }
  for (; keptCount < Math.min(minKept, positions.length); keptCount++) keepMostSignificant(positions, kept);
  return keptCount === positions.length ? positions : positions.filter((_, i) => kept[i]);
}

/** Keeps the dropped position farthest from the segment that replaced it. */
function keepMostSignificant(positions: Position[], kept: Uint8Array): void {
  let best = -1;
  let bestDistance = -1;
  let previousKept = 0;
  for (let i = 1; i < positions.length; i++) {
    if (!kept[i]) continue;
    for (let j = previousKept + 1; j < i; j++) {
      const distance = squaredSegmentDistance(positions[j], positions[previousKept], positions[i]);
      if (distance > bestDistance) {
        best = j;
        bestDistance = distance;
      }
    }
    previousKept = i;
  }
  kept[best] = 1;
}

/** Squared distance from point p to the segment a–b. */
export function squaredSegmentDistance([px, py]: Position, [ax, ay]: Position, [bx, by]: Position): number {
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
