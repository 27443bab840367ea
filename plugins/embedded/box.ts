/** Axis-aligned boxes of planar shapes (world or image pixels), to skip what is out of view. */
import type { Position } from 'geojson';

export interface Box {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}

/** The box around every position of `parts` (a polygon's rings or a set of lines); undefined when they have none. */
export function boxOf(parts: readonly Position[][]): Box | undefined {
  const box: Box = { xmin: Infinity, ymin: Infinity, xmax: -Infinity, ymax: -Infinity };
  for (const part of parts) {
    for (const [x, y] of part) {
      if (x < box.xmin) box.xmin = x;
      if (x > box.xmax) box.xmax = x;
      if (y < box.ymin) box.ymin = y;
      if (y > box.ymax) box.ymax = y;
    }
  }
  return box.xmin <= box.xmax ? box : undefined;
}
