import type { Position } from 'geojson';
import type { BBox, Geometry } from './types.ts';

/** The bounding box of every position in `geometries`; undefined when there is none. */
export function bboxOf(geometries: Geometry | readonly Geometry[]): BBox | undefined {
  const box: BBox = { xmin: Infinity, ymin: Infinity, xmax: -Infinity, ymax: -Infinity };
  const list = Array.isArray(geometries) ? geometries : [geometries as Geometry];
  for (const geometry of list) extend(box, geometry);
  return box.xmin <= box.xmax ? box : undefined;
}

function extend(box: BBox, geometry: Geometry): void {
  switch (geometry.type) {
    case 'Point':
      extendByPositions(box, [geometry.coordinates]);
      break;
    case 'MultiPoint':
    case 'LineString':
      extendByPositions(box, geometry.coordinates);
      break;
    case 'MultiLineString':
    case 'Polygon':
      for (const line of geometry.coordinates) extendByPositions(box, line);
      break;
    case 'MultiPolygon':
      for (const polygon of geometry.coordinates) for (const ring of polygon) extendByPositions(box, ring);
      break;
  }
}

function extendByPositions(box: BBox, positions: readonly Position[]): void {
  for (const [x, y] of positions) {
    if (x < box.xmin) box.xmin = x;
    if (x > box.xmax) box.xmax = x;
    if (y < box.ymin) box.ymin = y;
    if (y > box.ymax) box.ymax = y;
  }
}
