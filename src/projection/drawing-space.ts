/**
 * The space an image is drawn in (docs/decisions.md, "Drawing an image"): a projected CRS as it
 * is, longitude/latitude in Web Mercator so that shapes look as they do on maps, and however
 * absurd the coordinates, finite, so that the fit after it never overflows.
 */
import { mapVertices, type Shape } from '../geometry/shape.ts';
import { writeWebMercator } from './web-mercator.ts';

/**
 * Maps a shape from shapefile units into the drawing space: a projected CRS is drawn as it
 * is, lon/lat goes to Web Mercator metres (EPSG:3857) so shapes look as they do on maps.
 * Longitudes are not wrapped: the literal extent is drawn.
 */
export function toDrawingSpace(shape: Shape, geographic: boolean): Shape {
  return geographic ? mapVertices(shape, writeDrawingMercator) : shape;
}

/**
 * An image fits whatever finite extent it has, so an absurd longitude (1e308°) must stay a
 * finite x, short enough that halves of differences cannot overflow in the fit.
 */
const MAX_DRAWING_X = Number.MAX_VALUE / 4;

function writeDrawingMercator(lon: number, lat: number, out: Float64Array, at: number): void {
  writeWebMercator(lon, lat, out, at);
  out[at] = Math.max(-MAX_DRAWING_X, Math.min(MAX_DRAWING_X, out[at]));
}
