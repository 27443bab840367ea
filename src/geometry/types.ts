/**
 * The geometry types beside the flat Shape (shape.ts) in which records are read and drawn:
 * GeoJSON geometry, the form d3-geo's path writer draws and /ogc answers with (to-geojson.ts
 * makes it from a Shape; the shapefile writer of the tests and scripts/ writes from it), and
 * the bounding box every box test takes. Coordinates are in the shapefile's own units until
 * the projection step maps them into the drawing space.
 */
import type { LineString, MultiLineString, MultiPoint, MultiPolygon, Point, Polygon } from 'geojson';

export type Geometry = Point | MultiPoint | LineString | MultiLineString | Polygon | MultiPolygon;

export interface BBox {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}
