/**
 * A feature's Web Mercator metres in the units of one vector tile (docs/tiles.md, "Vector
 * tiles: geometry"): 0 to EXTENT across the tile, y down, not yet rounded, so that the clip
 * computes its crossings before they are rounded. The vertices the clip cannot see are left
 * out as they are written: a feature far larger than the tile then reaches the clipper's
 * arrays (a heap object a vertex) with only the vertices near the tile.
 */
import type { StepPacer } from '../cancellation/checkpoint.ts';
import type { Shape } from '../geometry/shape.ts';
import { tileBox, tileSpan, type TileAddress } from '../projection/tile-address.ts';

/** Tile units across a tile: MVT's usual 4096, 16 units to a pixel of a 256-px tile. */
export const EXTENT = 4096;
/**
 * Tile units kept beyond each edge: 4 pixels of a 256-px tile, enough for a line of up to
 * 8 px or a point's circle of radius 4 px to be drawn whole across the seam.
 */
export const BUFFER = 64;
/** The tile and its buffer as lineclip takes a box: xmin, ymin, xmax, ymax. */
export const CLIP_BOX = [-BUFFER, -BUFFER, EXTENT + BUFFER, EXTENT + BUFFER] as const;

/** Where the tile's corner (xmin, ymax) lies in metres, and tile units a metre. */
export interface TileFrame {
  xmin: number;
  ymax: number;
  scale: number;
}

export function tileFrame(tile: TileAddress): TileFrame {
  const { xmin, ymax } = tileBox(tile);
  return { xmin, ymax, scale: EXTENT / tileSpan(tile.z) };
}

/** The sides of the clip box a point lies beyond (1 left, 2 right, 4 above, 8 below); 0 inside or on it. */
export function outsideSides(x: number, y: number): number {
  return (x < CLIP_BOX[0] ? 1 : x > CLIP_BOX[2] ? 2 : 0) | (y < CLIP_BOX[1] ? 4 : y > CLIP_BOX[3] ? 8 : 0);
}

/**
 * `shape` in tile units. Of lines and rings, a vertex is left out when it, the vertex kept
 * before it and the one after it all lie beyond one same side of the clip box: the triangle
 * the three make lies wholly beyond that side, so the line's pieces in the box, and a
 * polygon's intersection with it, are exactly those of the shape as it was. Each part keeps
 * its first and last vertex (a ring stays closed). Points are all kept (tile-geometry.ts
 * keeps those in the box).
 */
export function toTileUnits(shape: Shape, frame: TileFrame, pacer: StepPacer): Shape {
  const { xmin, ymax, scale } = frame;
  const source = shape.xy;
  const xy = new Float64Array(source.length);
  const unitX = (i: number) => (source[2 * i] - xmin) * scale;
  const unitY = (i: number) => (ymax - source[2 * i + 1]) * scale;
  if (shape.kind === 'points') {
    for (let i = 0; i < source.length / 2; i++) {
      pacer.step();
      xy[2 * i] = unitX(i);
      xy[2 * i + 1] = unitY(i);
    }
    return { ...shape, xy };
  }
  const parts = new Uint32Array(shape.parts.length);
  let written = 0;
  for (let part = 0; part < shape.parts.length - 1; part++) {
    const first = shape.parts[part];
    const last = shape.parts[part + 1] - 1;
    parts[part] = written;
    let keptSides = 0;
    let x = unitX(first);
    let y = unitY(first);
    for (let i = first; i <= last; i++) {
      pacer.step();
      const sides = outsideSides(x, y);
      const nextX = i < last ? unitX(i + 1) : NaN;
      const nextY = i < last ? unitY(i + 1) : NaN;
      if (i === first || i === last || (keptSides & sides & outsideSides(nextX, nextY)) === 0) {
        xy[2 * written] = x;
        xy[2 * written + 1] = y;
        written++;
        keptSides = sides;
      }
      x = nextX;
      y = nextY;
    }
  }
  parts[parts.length - 1] = written;
  return { ...shape, xy: xy.subarray(0, 2 * written), parts };
}
