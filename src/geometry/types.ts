/**
 * Geometry is GeoJSON geometry, as the `shapefile` package reads it and d3-geo draws it.
 * Coordinates are in the shapefile's own units until the projection step maps them into
 * the drawing space. Z and M values are dropped when records are read.
 */
import type { LineString, MultiLineString, MultiPoint, MultiPolygon, Point, Polygon } from 'geojson';

export type Geometry = Point | MultiPoint | LineString | MultiLineString | Polygon | MultiPolygon;

export interface BBox {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}
