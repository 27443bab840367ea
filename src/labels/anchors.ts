/**
 * Where a feature's label goes, and how much the feature weighs when labels compete
 * (docs/decisions.md, "Thematic styling"): a polygon's label at the pole of inaccessibility of its
 * largest polygon (the inside point farthest from every edge, so the text sits in the
 * widest part, not at a centroid that may fall outside), a line's at half the length of its
 * longest part, a point's beside its symbol. Everything in the picture's CSS pixels.
 */
import polylabel from 'polylabel';
import type { StepPacer } from '../cancellation/checkpoint.ts';
import { vertexCount, type Shape } from '../geometry/shape.ts';
import { simplifyShape } from '../geometry/simplify.ts';

/** polylabel's precision: a pixel is as close as a label can be placed anyway. */
const POLE_PRECISION = 1;
/**
 * The polygon polylabel searches is simplified to half a pixel first: its cost grows with
 * the edges it measures every candidate against, and the pole moves by less than the
 * precision asked of it.
 */
const POLE_OUTLINE_PIXELS = 0.5;

/** Polygon area or line length in square or plain pixels; 0 for points, which keep their given order. */
export function featureWeight(shape: Shape, pacer: StepPacer): number {
  if (shape.kind === 'polygons') {
    let total = 0;
    for (let p = 0; p + 1 < shape.polygons.length; p++) total += polygonArea(shape, p, pacer);
    return total;
  }
  if (shape.kind === 'lines') {
    let total = 0;
    for (let part = 0; part + 1 < shape.parts.length; part++) total += partLength(shape, part, pacer);
    return total;
  }
  return 0;
}

/** The point a polygon's or a line's label is centred on; undefined for a shape without one. */
export function labelAnchor(shape: Shape, pacer: StepPacer): { x: number; y: number } | undefined {
  if (shape.kind === 'polygons') {
    pacer.step(vertexCount(shape));
    return poleOfLargestPolygon(simplifyShape(shape, POLE_OUTLINE_PIXELS), pacer);
  }
  if (shape.kind === 'lines') return middleOfLongestLine(shape, pacer);
  return shape.xy.length >= 2 ? { x: shape.xy[0], y: shape.xy[1] } : undefined;
}

function poleOfLargestPolygon(shape: Shape, pacer: StepPacer): { x: number; y: number } | undefined {
  let largest = -1;
  let largestArea = -Infinity;
  for (let p = 0; p + 1 < shape.polygons.length; p++) {
    const area = polygonArea(shape, p, pacer);
    if (area > largestArea) [largest, largestArea] = [p, area];
  }
  if (largest < 0) return undefined;
  const rings: [number, number][][] = [];
  for (let ring = shape.polygons[largest]; ring < shape.polygons[largest + 1]; ring++) {
    const points: [number, number][] = [];
    for (let v = shape.parts[ring]; v < shape.parts[ring + 1]; v++) points.push([shape.xy[2 * v], shape.xy[2 * v + 1]]);
    pacer.step(points.length);
    rings.push(points);
  }
  if (rings[0].length === 0) return undefined;
  const [x, y] = polylabel(rings, POLE_PRECISION);
  return Number.isFinite(x) && Number.isFinite(y) ? { x, y } : undefined;
}

function middleOfLongestLine(shape: Shape, pacer: StepPacer): { x: number; y: number } | undefined {
  let longest = -1;
  let longestLength = -Infinity;
  for (let part = 0; part + 1 < shape.parts.length; part++) {
    const length = partLength(shape, part, pacer);
    if (length > longestLength) [longest, longestLength] = [part, length];
  }
  if (longest < 0 || shape.parts[longest] === shape.parts[longest + 1]) return undefined;
  const { xy } = shape;
  let left = longestLength / 2;
  for (let v = shape.parts[longest]; v + 1 < shape.parts[longest + 1]; v++) {
    const step = Math.hypot(xy[2 * v + 2] - xy[2 * v], xy[2 * v + 3] - xy[2 * v + 1]);
    if (step >= left && step > 0) {
      const t = left / step;
      return { x: xy[2 * v] + t * (xy[2 * v + 2] - xy[2 * v]), y: xy[2 * v + 1] + t * (xy[2 * v + 3] - xy[2 * v + 1]) };
    }
    left -= step;
  }
  const first = shape.parts[longest];
  return { x: xy[2 * first], y: xy[2 * first + 1] };
}

/** A polygon's area: its outer ring's less its holes' (shoelace, whatever the winding). */
function polygonArea(shape: Shape, polygon: number, pacer: StepPacer): number {
  let area = 0;
  for (let ring = shape.polygons[polygon]; ring < shape.polygons[polygon + 1]; ring++) {
    const ringArea = Math.abs(signedRingArea(shape, ring, pacer));
    area += ring === shape.polygons[polygon] ? ringArea : -ringArea;
  }
  return Math.max(0, area);
}

function signedRingArea(shape: Shape, ring: number, pacer: StepPacer): number {
  const { xy } = shape;
  const start = shape.parts[ring];
  const end = shape.parts[ring + 1];
  let twice = 0;
  for (let v = start; v < end; v++) {
    const next = v + 1 < end ? v + 1 : start;
    twice += xy[2 * v] * xy[2 * next + 1] - xy[2 * next] * xy[2 * v + 1];
  }
  pacer.step(end - start);
  return twice / 2;
}

function partLength(shape: Shape, part: number, pacer: StepPacer): number {
  const { xy } = shape;
  let length = 0;
  for (let v = shape.parts[part]; v + 1 < shape.parts[part + 1]; v++) {
    length += Math.hypot(xy[2 * v + 2] - xy[2 * v], xy[2 * v + 3] - xy[2 * v + 1]);
  }
  pacer.step(shape.parts[part + 1] - shape.parts[part]);
  return length;
}
