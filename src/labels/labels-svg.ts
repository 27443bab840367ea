/**
 * Placed labels as SVG: each text as its glyph outlines (text/layout.ts), so the picture shows
 * exactly what placement measured, in resvg and in any browser, with no font to load; a halo
 * stroked under the fill (paint-order) in the halo colour, round-joined, for legibility
 * on any fill beneath.
 */
import type { Rgba } from '../svg/style.ts';
import { paint } from '../svg/paint.ts';
import { textPath } from '../text/layout.ts';
import { haloWidth } from './label-text.ts';
import type { PlacedLabel } from './place-labels.ts';

export interface LabelStyle {
  /** Font size, CSS pixels: the one the labels were placed at. */
  size: number;
  color: Rgba;
  halo: Rgba;
}

/**
 * Decimals of the outlines' coordinates: hundredths of a CSS pixel stay finer than a real
 * pixel's tenth up to scale 3 (resvg zooms the same SVG), and an SVG answer keeps them.
 */
const OUTLINE_DIGITS = 2;

/** The labels' group; '' when there is none. */
export function labelsSvg(placed: readonly PlacedLabel[], { size, color, halo }: LabelStyle): string {
  let paths = '';
  for (const label of placed) {
    const d = textPath(label.text, label.x, label.y, size, OUTLINE_DIGITS);
    if (d) paths += `<path d="${d}"/>`;
  }
  if (!paths) return '';
  return (
    `<g${paint('fill', color)}${paint('stroke', halo)} stroke-width="${round2(haloWidth(size))}"` +
    ` stroke-linejoin="round" paint-order="stroke">${paths}</g>`
  );
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
