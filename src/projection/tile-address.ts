/**
 * The XYZ tile grid of slippy maps (docs/tiles.md, "Addresses"): Web Mercator, 256-px tiles,
 * y down from 85.0511°N, zoom 0 to 22. A tile's box in metres is what its features are
 * looked up, clipped and drawn by.
 */
import type { BBox } from '../geometry/types.ts';
import { HALF_WORLD } from './web-mercator.ts';

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

/** The zoom levels a tile takes: those of every slippy map, as far as a map's view goes. */
export const MIN_TILE_ZOOM = 0;
export const MAX_TILE_ZOOM = 22;

/** The tile's side in Web Mercator metres. */
export function tileSpan(z: number): number {
  return (2 * HALF_WORLD) / 2 ** z;
}

/** The tile's box in Web Mercator metres. */
export function tileBox({ z, x, y }: TileAddress): BBox {
  const span = tileSpan(z);
  const xmin = -HALF_WORLD + x * span;
  const ymax = HALF_WORLD - y * span;
  return { xmin, ymin: ymax - span, xmax: xmin + span, ymax };
}

/** The range of tiles at zoom z that cover a Web Mercator box (clamped to the world). */
export function tileRange(box: BBox, z: number): { minX: number; minY: number; maxX: number; maxY: number } {
  const span = tileSpan(z);
  const last = 2 ** z - 1;
  const column = (metres: number) => Math.min(last, Math.max(0, Math.floor((metres + HALF_WORLD) / span)));
  const row = (metres: number) => Math.min(last, Math.max(0, Math.floor((HALF_WORLD - metres) / span)));
  return { minX: column(box.xmin), maxX: column(box.xmax), minY: row(box.ymax), maxY: row(box.ymin) };
}
