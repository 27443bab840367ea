import { geoPath } from 'd3-geo';
import type { Shape } from '../geometry/shape.ts';
import { shapeToGeoJson } from '../geometry/to-geojson.ts';
import { paint } from './paint.ts';
import type { DrawStyle } from './style.ts';

/**
 * Decimals of the coordinates (CSS pixels) for tenths of a real pixel: finer than
 * anti-aliasing can show, and keeps the SVG small.
 */
const digitsFor = (pixelRatio: number) => Math.ceil(Math.log10(10 * pixelRatio));

/**
 * The features as SVG paths, in the order given: polygons filled (even-odd) and outlined,
 * holes outlined and left open; lines stroked; points as round symbols filled and outlined.
 * Shapes are in image (CSS) pixels already (projection/pixels.ts), so d3-geo's path writer
 * runs without a projection; `pixelRatio` real pixels per CSS pixel sets the precision.
 */
export function featuresSvg(shapes: readonly Shape[], style: DrawStyle, pixelRatio: number): string {
  const path = geoPath().digits(digitsFor(pixelRatio)).pointRadius(style.pointRadius);
  const strokeDrawn = style.lineWidth > 0 && style.lineColor.a > 0;
  let paths = '';
  for (const shape of shapes) {
    const geometry = shapeToGeoJson(shape);
    const d = geometry && path(geometry);
    if (!d) continue;
    switch (shape.kind) {
      case 'lines':
        if (strokeDrawn) paths += `<path d="${d}" fill="none"/>`;
        break;
      case 'points':
        // Overlapping symbols of one MultiPoint must not cancel each other out.
        paths += `<path d="${d}" fill-rule="nonzero"/>`;
        break;
      case 'polygons':
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
