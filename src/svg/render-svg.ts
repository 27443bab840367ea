/**
 * The SVG document of one image, layer by layer: both what resvg rasterizes into the PNG and
 * what format=svg answers, so that the two cannot differ; in CSS pixels whatever the scale.
 */
import type { Shape } from '../geometry/shape.ts';
import { backgroundSvg, gridSvg } from './background.ts';
import { featuresSvg } from './features.ts';
import type { DrawStyle, FeaturePaint } from './style.ts';

export interface SvgImage {
  width: number;
  height: number;
  style: DrawStyle;
  /** In image pixels (projection/pixels.ts). */
  shapes: readonly Shape[];
  /** Real pixels per CSS pixel the image is drawn at (the coordinates' precision follows it). */
  pixelRatio: number;
  /** A styled picture's own paint per shape (its class's or rule's colours). */
  paints?: readonly (FeaturePaint | undefined)[];
  /** Drawn over the features: a styled picture's labels and legend. */
  overlay?: string;
}

/**
 * The SVG document of one image: background, grid, the features, then what is drawn over them. Its size and
 * coordinates are CSS pixels whatever the pixel ratio: rasterized zoomed by it, lines,
 * symbols and the grid keep their CSS widths (format=svg answers with this very document).
 */
export function renderSvg({ width, height, style, shapes, pixelRatio, paints, overlay }: SvgImage): string {
  return svgDocument(
    width,
    height,
    backgroundSvg(style.background, width, height) +
      (style.grid ? gridSvg(style.grid, width, height) : '') +
      featuresSvg(shapes, style, pixelRatio, paints) +
      (overlay ?? ''),
  );
}

/** An SVG document of `width` × `height` CSS pixels holding `content`. */
export function svgDocument(width: number, height: number, content: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${content}</svg>`;
}
