import { type GeoStreamWrapper, geoPath } from 'd3-geo';
import type { Geometry } from '../geometry/types.ts';
import { paint } from './paint.ts';
import type { DrawStyle } from './style.ts';

/** Tenths of a pixel: finer than anti-aliasing can show, and keeps the SVG small. */
const DIGITS = 1;

/**
 * The features as SVG paths, in the order given: polygons filled (even-odd) and outlined,
 * holes outlined and left open; lines stroked; points as round symbols filled and outlined.
 * `projection` maps the drawing space into image pixels.
 */
export function featuresSvg(
  features: readonly { geometry: Geometry }[],
  style: DrawStyle,
  projection: GeoStreamWrapper,
): string {
  const path = geoPath(projection).digits(DIGITS).pointRadius(style.pointRadius);
  const strokeDrawn = style.lineWidth > 0 && style.lineColor.a > 0;
  let paths = '';
  for (const { geometry } of features) {
    const d = path(geometry);
    if (!d) continue;
    switch (geometry.type) {
      case 'LineString':
      case 'MultiLineString':
        if (strokeDrawn) paths += `<path d="${d}" fill="none"/>`;
        break;
      case 'Point':
      case 'MultiPoint':
        // Overlapping symbols of one MultiPoint must not cancel each other out.
        paths += `<path d="${d}" fill-rule="nonzero"/>`;
        break;
      default:
        paths += `<path d="${d}"/>`;
    }
  }
  if (!paths) return '';
  const stroke = strokeDrawn ? `${paint('stroke', style.lineColor)} stroke-width="${style.lineWidth}"` : ' stroke="none"';
  return (
    `<g fill-rule="evenodd"${paint('fill', style.fillColor, style.fillOpacity)}${stroke}` +
    ` stroke-linejoin="round" stroke-linecap="round">${paths}</g>`
  );
}
