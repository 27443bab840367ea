/**
 * Point symbols laid onto a canvas as stamps: the symbol is drawn once (by resvg, as every
 * symbol was) at each quarter-pixel offset, and each point copies the nearest of those
 * pictures into place. A million points then cost a million small blends, where resvg
 * would parse and fill a million circles (measured: 100,000 stroked circles took it about
 * 2 s at 1000×1000; stamps, ~0.1 s). Positions are kept to within an eighth of a pixel.
 */
import { over } from './composite.ts';

/** Offsets a pixel is split into, on each axis. */
export const STAMP_PHASES = 4;

/** A symbol drawn at every phase: premultiplied RGBA pictures of `size` × `size` real pixels. */
export interface Stamp {
  size: number;
  /**
   * Where the symbol's centre lies in the picture of phase (0, 0), in real pixels from its
   * top-left corner (a whole number); phase (i, j) has it at (origin + i / STAMP_PHASES,
   * origin + j / STAMP_PHASES).
   */
  origin: number;
  /** Indexed by j × STAMP_PHASES + i. */
  phases: Uint32Array[];
}

/** The whole-pixel origin and the side a stamp needs for a symbol reaching `reach` real pixels from its centre. */
export function stampFrame(reach: number): { origin: number; size: number } {
  // Anti-aliasing reaches a pixel beyond the symbol; resvg draws a shape that nears its canvas edge differently, so two.
  const origin = Math.ceil(reach) + 2;
  return { origin, size: 2 * origin + 2 };
}

/**
 * Lays `stamp` over `canvas` (premultiplied RGBA words, raster/words.ts; `width` × `height` real pixels) with the
 * symbol's centre at real pixel position (x, y), clipped to the canvas.
 */
export function stampAt(canvas: Uint32Array, width: number, height: number, stamp: Stamp, x: number, y: number): void {
  const quarterX = Math.round(x * STAMP_PHASES);
  const quarterY = Math.round(y * STAMP_PHASES);
  const column = Math.floor(quarterX / STAMP_PHASES);
  const row = Math.floor(quarterY / STAMP_PHASES);
  const picture = stamp.phases[(quarterY - row * STAMP_PHASES) * STAMP_PHASES + (quarterX - column * STAMP_PHASES)];
  const left = column - stamp.origin;
  const top = row - stamp.origin;
  const { size } = stamp;
  const firstColumn = Math.max(0, -left);
  const endColumn = Math.min(size, width - left);
  const endRow = Math.min(size, height - top);
  for (let r = Math.max(0, -top); r < endRow; r++) {
    let at = (top + r) * width + left + firstColumn;
    for (let c = r * size + firstColumn, end = r * size + endColumn; c < end; c++, at++) {
      const source = picture[c];
      const alpha = source >>> 24;
      if (alpha === 255) canvas[at] = source;
      else if (alpha !== 0) canvas[at] = over(source, canvas[at], alpha);
    }
  }
}
