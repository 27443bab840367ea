import type { Position } from 'geojson';
import { mapVertices, type Shape } from '../geometry/shape.ts';

const EARTH_RADIUS = 6378137;
/** The latitude at which Web Mercator's square world ends. */
export const MAX_MERCATOR_LATITUDE = 85.0511287798066;
const RADIANS = Math.PI / 180;

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

export function lonLatToWebMercator([lon, lat]: Position): Position {
  return [webMercatorX(lon), webMercatorY(lat)];
}

/** Writes the Web Mercator metres of lon/lat degrees into `out` at `at`. */
export function writeWebMercator(lon: number, lat: number, out: Float64Array, at: number): void {
  out[at] = webMercatorX(lon);
  out[at + 1] = webMercatorY(lat);
}

const webMercatorX = (lon: number) => EARTH_RADIUS * lon * RADIANS;

function webMercatorY(lat: number): number {
  const clamped = Math.max(-MAX_MERCATOR_LATITUDE, Math.min(MAX_MERCATOR_LATITUDE, lat));
  return EARTH_RADIUS * Math.log(Math.tan(Math.PI / 4 + (clamped * RADIANS) / 2));
}
