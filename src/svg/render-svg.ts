import type { GeoStreamWrapper } from 'd3-geo';
import type { Geometry } from '../geometry/types.ts';
import { backgroundSvg, gridSvg } from './background.ts';
import { featuresSvg } from './features.ts';
import type { DrawStyle } from './style.ts';

export interface SvgImage {
  width: number;
  height: number;
  style: DrawStyle;
  /** Geometry in the drawing space; `projection` maps it into pixels. */
  features: readonly { geometry: Geometry }[];
  projection: GeoStreamWrapper;
}

/** The SVG document of one image: background, grid, then the features. */
export function renderSvg({ width, height, style, features, projection }: SvgImage): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    backgroundSvg(style.background, width, height) +
    (style.grid ? gridSvg(style.grid, width, height) : '') +
    featuresSvg(features, style, projection) +
    '</svg>'
  );
}
