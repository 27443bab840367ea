/**
 * Web Mercator (EPSG:3857) arithmetic, the one home of it: metres, degrees and the world
 * pixels of 256-px tiles. World pixels have their origin at 180°W, 85.0511°N, x right,
 * y down; at zoom z the world is 256 * 2^z pixels wide.
 */
export const EARTH_RADIUS = 6378137;
/** Half the world's width in metres: x and y run from -HALF_WORLD to HALF_WORLD. */
export const HALF_WORLD = Math.PI * EARTH_RADIUS;
/** The latitude at which Web Mercator's square world ends. */
export const MAX_MERCATOR_LATITUDE = 85.0511287798066;
export const TILE_SIZE = 256;
/** The zoom levels a map view takes. */
export const MIN_ZOOM = 1;
export const MAX_ZOOM = 22;

const RADIANS = Math.PI / 180;
const DEGREES = 180 / Math.PI;

/** The world's width (and height) in pixels at `zoom`. */
export function worldSize(zoom: number): number {
  return TILE_SIZE * 2 ** zoom;
}

/** Pixels per metre at `zoom`. */
export function pixelsPerMetre(zoom: number): number {
  return worldSize(zoom) / (2 * HALF_WORLD);
}

export function mercatorX(lon: number): number {
  return EARTH_RADIUS * lon * RADIANS;
}

/** Latitudes past the square world's edge are clamped to it. */
export function mercatorY(lat: number): number {
  const clamped = Math.max(-MAX_MERCATOR_LATITUDE, Math.min(MAX_MERCATOR_LATITUDE, lat));
  return EARTH_RADIUS * Math.log(Math.tan(Math.PI / 4 + (clamped * RADIANS) / 2));
}

/** Writes the metres of lon/lat degrees into `out` at `at` (flat coordinate arrays). */
export function writeWebMercator(lon: number, lat: number, out: Float64Array, at: number): void {
  out[at] = mercatorX(lon);
  out[at + 1] = mercatorY(lat);
}

/** Metres to degrees. */
export function toLonLat({ x, y }: { x: number; y: number }): { lon: number; lat: number } {
  return { lon: (x / EARTH_RADIUS) * DEGREES, lat: Math.atan(Math.sinh(y / EARTH_RADIUS)) * DEGREES };
}

/** Degrees to world pixels at `zoom`. */
export function lonLatToWorldPixel(lon: number, lat: number, zoom: number): { x: number; y: number } {
  const scale = pixelsPerMetre(zoom);
  return { x: (mercatorX(lon) + HALF_WORLD) * scale, y: (HALF_WORLD - mercatorY(lat)) * scale };
}

/** World pixels at `zoom` to metres. */
export function worldPixelToMetres(x: number, y: number, zoom: number): { x: number; y: number } {
  const scale = pixelsPerMetre(zoom);
  return { x: x / scale - HALF_WORLD, y: HALF_WORLD - y / scale };
}

/** World pixels at `zoom` to degrees. */
export function worldPixelToLonLat(x: number, y: number, zoom: number): { lon: number; lat: number } {
  return toLonLat(worldPixelToMetres(x, y, zoom));
}
