import type { Shape } from '../geometry/shape.ts';
import { backgroundSvg, gridSvg } from './background.ts';
import { featuresSvg } from './features.ts';
import type { DrawStyle } from './style.ts';

export interface SvgImage {
  width: number;
  height: number;
  style: DrawStyle;
  /** In image pixels (projection/pixels.ts). */
  shapes: readonly Shape[];
}

/** The SVG document of one image: background, grid, then the features. */
export function renderSvg({ width, height, style, shapes }: SvgImage): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    backgroundSvg(style.background, width, height) +
    (style.grid ? gridSvg(style.grid, width, height) : '') +
    featuresSvg(shapes, style) +
    '</svg>'
  );
}
