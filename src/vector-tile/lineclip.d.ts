/**
 * The part of lineclip (which ships no types) that tile-geometry.ts calls. A point is
 * [x, y]; the box is [xmin, ymin, xmax, ymax].
 */
declare module 'lineclip' {
  type Point = number[];
  type Box = readonly [number, number, number, number];
  /** The pieces of a line inside the box: a line that leaves and comes back is cut in two. */
  export function clipPolyline(points: Point[], bbox: Box): Point[][];
  /** A ring clipped to the box (Sutherland–Hodgman): one ring, possibly with edges along the box. */
  export function clipPolygon(points: Point[], bbox: Box): Point[];
}
