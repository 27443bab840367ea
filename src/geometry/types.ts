/**
 * Geometry as the renderer sees it: plain arrays of interleaved x,y coordinates
 * (Float64Array [x0, y0, x1, y1, ...]) in some planar or geographic space. Z and M values
 * are dropped when records are read.
 */

export interface BBox {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}

/** Interleaved x,y coordinates of one ring, one line part or a set of points. */
export type Coords = Float64Array;

/** One polygon: an outer ring and the holes it contains (rings closed: last = first). */
export interface Polygon {
  outer: Coords;
  holes: Coords[];
}

export type Geometry =
  | { kind: 'point'; points: Coords } // one or more points (a MultiPoint has several)
  | { kind: 'polyline'; parts: Coords[] }
  | { kind: 'polygon'; polygons: Polygon[] };

export type GeometryKind = Geometry['kind'];
