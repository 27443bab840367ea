/**
 * For the plugin SDK (plugins/README.md, "The contract"): which tiles cover a map's view and
 * where each goes on the image, the arithmetic every tile basemap needs (xyz, pmtiles), written
 * once with its antimeridian wrap and over-zoom, so that no plugin gets them wrong its own way.
 */
import { TILE_SIZE } from '../projection/web-mercator.ts';
import type { MapView } from '../plugin-contract/basemap-plugin.ts';

/** One tile of the map and where it goes on the image. */
export interface TilePlacement {
  z: number;
  /** Column, wrapped around the antimeridian into 0 .. 2^z - 1. */
  x: number;
  y: number;
  /** Image pixels of the tile's top-left corner. */
  left: number;
  top: number;
  /** Pixels the tile covers on the image: 256, or a multiple when zoomed past maxZoom. */
  size: number;
}

/**
 * The tiles that cover the view, placed on the pixel grid: tile (x, y) at
 * x*size - view.left, y*size - view.top. Past `maxZoom` the tiles of maxZoom are scaled
 * up; rows beyond the poles are left out; columns wrap around the antimeridian.
 */
export function tilesCovering(view: MapView, maxZoom: number): TilePlacement[] {
  const z = Math.min(view.zoom, maxZoom);
  const size = TILE_SIZE * 2 ** (view.zoom - z);
  const columns = 2 ** z;
  const tiles: TilePlacement[] = [];
  const firstRow = Math.max(0, Math.floor(view.top / size));
  const lastRow = Math.min(columns - 1, Math.floor((view.top + view.height - 1) / size));
  const firstColumn = Math.floor(view.left / size);
  const lastColumn = Math.floor((view.left + view.width - 1) / size);
  for (let row = firstRow; row <= lastRow; row++) {
    for (let column = firstColumn; column <= lastColumn; column++) {
      tiles.push({
        z,
        x: ((column % columns) + columns) % columns,
        y: row,
        left: column * size - view.left,
        top: row * size - view.top,
        size,
      });
    }
  }
  return tiles;
}
