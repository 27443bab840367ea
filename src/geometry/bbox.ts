/**
 * How two bounding boxes stand to each other (meet, hold, share), written once: the map's
 * view, the /ogc bbox scan, the lon/lat boxes and the image-map areas all ask the same
 * questions, and an edge case settled in one place (a box that only touches another meets
 * it) holds for all.
 */
import type { BBox } from './types.ts';

/** Whether the boxes meet, edges included; no box (a shape without vertices) meets none. */
export function overlaps(a: BBox | undefined, b: BBox): boolean {
  return a !== undefined && a.xmin <= b.xmax && a.xmax >= b.xmin && a.ymin <= b.ymax && a.ymax >= b.ymin;
}

/** Whether `inner` lies wholly inside `outer`, edges included. */
export function contains(outer: BBox, inner: BBox): boolean {
  return outer.xmin <= inner.xmin && outer.xmax >= inner.xmax && outer.ymin <= inner.ymin && outer.ymax >= inner.ymax;
}

/** The common part of two boxes; undefined when they do not meet. */
export function intersection(a: BBox, b: BBox): BBox | undefined {
  const box = { xmin: Math.max(a.xmin, b.xmin), ymin: Math.max(a.ymin, b.ymin), xmax: Math.min(a.xmax, b.xmax), ymax: Math.min(a.ymax, b.ymax) };
  return box.xmin <= box.xmax && box.ymin <= box.ymax ? box : undefined;
}

/** The box that holds both. */
export function union(a: BBox, b: BBox): BBox {
  return { xmin: Math.min(a.xmin, b.xmin), ymin: Math.min(a.ymin, b.ymin), xmax: Math.max(a.xmax, b.xmax), ymax: Math.max(a.ymax, b.ymax) };
}

/** The box widened by `margin` on every side. */
export function widened(box: BBox, margin: number): BBox {
  return { xmin: box.xmin - margin, ymin: box.ymin - margin, xmax: box.xmax + margin, ymax: box.ymax + margin };
}
