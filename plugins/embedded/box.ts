/** Axis-aligned boxes of planar shapes (world or image pixels), to skip what is out of view. */
export interface Box {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}

/** Whether two boxes share a point (touching counts). */
export function boxesMeet(a: Box, b: Box): boolean {
  return a.xmax >= b.xmin && a.xmin <= b.xmax && a.ymax >= b.ymin && a.ymin <= b.ymax;
}
