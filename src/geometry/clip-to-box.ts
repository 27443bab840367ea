/**
 * Shapes cut to a box, for drawing: what lies outside a picture (and the margin its strokes
 * reach into) costs the rasterizer as much as what it shows, and is counted against the
 * drawing's budget. A tile at zoom 16 inside a country would otherwise stroke the country's
 * whole coast. Rings are clipped by Sutherland–Hodgman, one ring to one ring whose new edges
 * run along the box (outside the picture when the box has the margin); lines are cut into
 * the pieces inside; points outside are dropped. A shape wholly inside is returned as it is.
 */
import { linesShape, pointsShape, polygonsShape, type Shape } from './shape.ts';
import type { BBox } from './types.ts';

/** `shape` cut to `box`; a shape with no vertices when nothing of it is inside. */
export function clipToBox(shape: Shape, box: BBox): Shape {
  const bounds = flatBounds(shape.xy);
  if (bounds.xmin >= box.xmin && bounds.xmax <= box.xmax && bounds.ymin >= box.ymin && bounds.ymax <= box.ymax) return shape;
  if (bounds.xmax < box.xmin || bounds.xmin > box.xmax || bounds.ymax < box.ymin || bounds.ymin > box.ymax) return emptyLike(shape);
  switch (shape.kind) {
    case 'points':
      return clipPoints(shape, box);
    case 'lines':
      return clipLines(shape, box);
    case 'polygons':
      return clipPolygons(shape, box);
  }
}

function emptyLike(shape: Shape): Shape {
  const none = new Float64Array(0);
  if (shape.kind === 'polygons') return polygonsShape(none, Uint32Array.of(0), Uint32Array.of(0));
  return shape.kind === 'lines' ? linesShape(none, Uint32Array.of(0)) : pointsShape(none);
}

function flatBounds(xy: Float64Array): BBox {
  const bounds = { xmin: Infinity, ymin: Infinity, xmax: -Infinity, ymax: -Infinity };
  for (let i = 0; i < xy.length; i += 2) {
    if (xy[i] < bounds.xmin) bounds.xmin = xy[i];
    if (xy[i] > bounds.xmax) bounds.xmax = xy[i];
    if (xy[i + 1] < bounds.ymin) bounds.ymin = xy[i + 1];
    if (xy[i + 1] > bounds.ymax) bounds.ymax = xy[i + 1];
  }
  return bounds;
}

const inside = (x: number, y: number, box: BBox) => x >= box.xmin && x <= box.xmax && y >= box.ymin && y <= box.ymax;

function clipPoints(shape: Shape, box: BBox): Shape {
  const kept: number[] = [];
  for (let i = 0; i < shape.xy.length; i += 2) if (inside(shape.xy[i], shape.xy[i + 1], box)) kept.push(shape.xy[i], shape.xy[i + 1]);
  return pointsShape(Float64Array.from(kept));
}

/** Each line's pieces inside the box: a piece ends where the line leaves and starts where it comes back. */
function clipLines(shape: Shape, box: BBox): Shape {
  const xy: number[] = [];
  const parts: number[] = [0];
  const endPiece = () => {
    const vertices = xy.length / 2;
    if (vertices - parts[parts.length - 1] >= 2) parts.push(vertices);
    else xy.length = 2 * parts[parts.length - 1];
  };
  for (let part = 0; part + 1 < shape.parts.length; part++) {
    for (let v = shape.parts[part]; v + 1 < shape.parts[part + 1]; v++) {
      const segment = clipSegment(shape.xy[2 * v], shape.xy[2 * v + 1], shape.xy[2 * v + 2], shape.xy[2 * v + 3], box);
      if (!segment) {
        endPiece();
        continue;
      }
      const [ax, ay, bx, by] = segment;
      const vertices = xy.length / 2;
      const open = vertices > parts[parts.length - 1];
      if (open && (xy[xy.length - 2] !== ax || xy[xy.length - 1] !== ay)) endPiece();
      if (xy.length / 2 === parts[parts.length - 1]) xy.push(ax, ay);
      xy.push(bx, by);
      // A segment cut short left the box: the piece ends there.
      if (bx !== shape.xy[2 * v + 2] || by !== shape.xy[2 * v + 3]) endPiece();
    }
    endPiece();
  }
  return linesShape(Float64Array.from(xy), Uint32Array.from(parts));
}

/** The part of segment a–b inside the box (Liang–Barsky), or undefined. */
function clipSegment(ax: number, ay: number, bx: number, by: number, box: BBox): [number, number, number, number] | undefined {
  const dx = bx - ax;
  const dy = by - ay;
  let enter = 0;
  let leave = 1;
  for (const [p, q] of [
    [-dx, ax - box.xmin],
    [dx, box.xmax - ax],
    [-dy, ay - box.ymin],
    [dy, box.ymax - ay],
  ]) {
    if (p === 0) {
      if (q < 0) return undefined;
    } else {
      const t = q / p;
      if (p < 0) enter = Math.max(enter, t);
      else leave = Math.min(leave, t);
    }
  }
  if (enter > leave) return undefined;
  return [enter === 0 ? ax : ax + enter * dx, enter === 0 ? ay : ay + enter * dy, leave === 1 ? bx : ax + leave * dx, leave === 1 ? by : ay + leave * dy];
}

/** Each ring clipped; a polygon whose outer ring is gone is gone with its holes. */
function clipPolygons(shape: Shape, box: BBox): Shape {
  const xy: number[] = [];
  const parts: number[] = [0];
  const polygons: number[] = [0];
  for (let polygon = 0; polygon + 1 < shape.polygons.length; polygon++) {
    for (let ring = shape.polygons[polygon]; ring < shape.polygons[polygon + 1]; ring++) {
      const clipped = clipRing(shape.xy.subarray(2 * shape.parts[ring], 2 * shape.parts[ring + 1]), box);
      if (clipped.length < 8) {
        // No outer ring, no polygon: its holes are skipped.
        if (ring === shape.polygons[polygon]) break;
        continue;
      }
      for (const value of clipped) xy.push(value);
      parts.push(xy.length / 2);
    }
    if (parts.length - 1 > polygons[polygons.length - 1]) polygons.push(parts.length - 1);
  }
  return polygonsShape(Float64Array.from(xy), Uint32Array.from(parts), Uint32Array.from(polygons));
}

/** A closed ring (first vertex repeated last) clipped to the box, closed again; empty when nothing is left. */
function clipRing(ring: Float64Array, box: BBox): number[] {
  let points = Array.from(ring.subarray(0, ring.length - 2));
  const edges: [(x: number, y: number) => boolean, (ax: number, ay: number, bx: number, by: number) => [number, number]][] = [
    [(x) => x >= box.xmin, (ax, ay, bx, by) => [box.xmin, ay + ((by - ay) * (box.xmin - ax)) / (bx - ax)]],
    [(x) => x <= box.xmax, (ax, ay, bx, by) => [box.xmax, ay + ((by - ay) * (box.xmax - ax)) / (bx - ax)]],
    [(_, y) => y >= box.ymin, (ax, ay, bx, by) => [ax + ((bx - ax) * (box.ymin - ay)) / (by - ay), box.ymin]],
    [(_, y) => y <= box.ymax, (ax, ay, bx, by) => [ax + ((bx - ax) * (box.ymax - ay)) / (by - ay), box.ymax]],
  ];
  for (const [keeps, crossing] of edges) {
    const next: number[] = [];
    const count = points.length / 2;
    for (let i = 0; i < count; i++) {
      const [px, py] = [points[2 * ((i + count - 1) % count)], points[2 * ((i + count - 1) % count) + 1]];
      const [cx, cy] = [points[2 * i], points[2 * i + 1]];
      const [previousIn, currentIn] = [keeps(px, py), keeps(cx, cy)];
      if (currentIn !== previousIn) next.push(...crossing(px, py, cx, cy));
      if (currentIn) next.push(cx, cy);
    }
    points = next;
    if (points.length === 0) return [];
  }
  points.push(points[0], points[1]);
  return points;
}
