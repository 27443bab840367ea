/**
 * Colours as SVG paint attributes, one way for features, labels, legends and plugins (the SDK
 * exports it): the colour as `#rrggbb` with its alpha in an opacity attribute of its own, and a
 * fully transparent paint as `none`, so that nothing invisible is drawn.
 */
import type { Rgba } from './style.ts';

/** `#rrggbb`; the alpha goes into a separate opacity attribute. */
export function hex({ r, g, b }: Rgba): string {
  return '#' + ((1 << 24) | (channel(r) << 16) | (channel(g) << 8) | channel(b)).toString(16).slice(1);
}

/**
 * The attributes that paint `colour` (times `opacity`) as fill or stroke: `none` when the
 * result is fully transparent, so nothing is drawn at all.
 */
export function paint(property: 'fill' | 'stroke', colour: Rgba, opacity = 1): string {
  const alpha = clamp01(colour.a * opacity);
  if (alpha === 0) return ` ${property}="none"`;
  const opacityAttribute = alpha < 1 ? ` ${property}-opacity="${round3(alpha)}"` : '';
  return ` ${property}="${hex(colour)}"${opacityAttribute}`;
}

/** The stop attributes of a gradient stop. */
export function stopPaint(colour: Rgba): string {
  const alpha = clamp01(colour.a);
  return ` stop-color="${hex(colour)}"${alpha < 1 ? ` stop-opacity="${round3(alpha)}"` : ''}`;
}

function channel(value: number): number {
  return Math.max(0, Math.min(255, Math.round(value)));
}

function clamp01(value: number): number {
  return Math.max(0, Math.min(1, value));
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
