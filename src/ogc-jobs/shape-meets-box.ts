/**
 * Whether a shape meets a box, as OGC API – Features' `bbox` asks ("intersects"): a vertex
 * or an edge of it in the box, or, for polygons, the box inside one. Planar, in the units
 * the shape and the box share.
 */
import type { Shape } from '../geometry/shape.ts';
import { crossingsAlong } from '../geometry/point-in-ring.ts';
import type { StepPacer } from '../cancellation/checkpoint.ts';
import type { BBox } from '../geometry/types.ts';

export function shapeMeetsBox(shape: Shape, box: BBox, pacer: StepPacer): boolean {
  const { xy, parts } = shape;
  for (let part = 0; part < parts.length - 1; part++) {
    const first = parts[part];
    const end = parts[part + 1];
    for (let i = first; i < end; i++) {
      pacer.step();
      if (shape.kind === 'points' || i === first) {
        if (inside(box, xy[2 * i], xy[2 * i + 1])) return true;
      } else if (segmentMeetsBox(xy[2 * i - 2], xy[2 * i - 1], xy[2 * i], xy[2 * i + 1], box)) {
        return true;
      }
    }
  }
  if (shape.kind !== 'polygons') return false;
  // No edge reaches into the box: it is inside the polygons or outside them all, as any of its points is.
  let crossings = 0;
  for (let part = 0; part < parts.length - 1; part++) crossings += crossingsAlong(xy, parts[part], parts[part + 1], box.xmin, box.ymin, pacer);
  return crossings % 2 === 1;
}

function inside(box: BBox, x: number, y: number): boolean {
  return x >= box.xmin && x <= box.xmax && y >= box.ymin && y <= box.ymax;
}

/** Liang–Barsky: whether some point of the segment from (x0, y0) to (x1, y1) lies in the box. */
function segmentMeetsBox(x0: number, y0: number, x1: number, y1: number, box: BBox): boolean {
  let enter = 0;
  let leave = 1;
  const clip = (denominator: number, numerator: number): boolean => {
    if (denominator === 0) return numerator >= 0;
    const t = numerator / denominator;
    if (denominator > 0) leave = Math.min(leave, t);
    else enter = Math.max(enter, t);
    return enter <= leave;
  };
  const dx = x1 - x0;
  const dy = y1 - y0;
  return clip(-dx, x0 - box.xmin) && clip(dx, box.xmax - x0) && clip(-dy, y0 - box.ymin) && clip(dy, box.ymax - y0);
}
