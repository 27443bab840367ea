/**
 * The features as SVG paths, written by d3-geo's path writer and filled as GDAL fills them
 * (docs/decisions.md, "Drawing an image"): each record's polygons as their union, holes open,
 * and a styled picture's own colours feature by feature.
 */
import { geoPath } from 'd3-geo';
import type { Position } from 'geojson';
import type { Shape } from '../geometry/shape.ts';
import { shapeToGeoJson } from '../geometry/to-geojson.ts';
import { paint } from './paint.ts';
import type { DrawStyle, FeaturePaint } from './style.ts';

/**
 * Decimals of the coordinates (CSS pixels) for tenths of a real pixel: finer than
 * anti-aliasing can show, and keeps the SVG small.
 */
const digitsFor = (pixelRatio: number) => Math.ceil(Math.log10(10 * pixelRatio));

/**
 * The features as SVG paths, in the order given: polygons filled and outlined, holes outlined
 * and left open; lines stroked; points as round symbols filled and outlined. A feature's
 * polygons (GDAL's organisation: an outer ring and its holes) are filled as their union
 * (docs/decisions.md, "Drawing an image"): outer rings wound one way and holes the other, filled
 * nonzero, so two overlapping outer rings of one record neither cancel each other (even-odd
 * over the whole record showed their overlap as a hole, where GDAL reads two polygons and
 * fills both) nor, under a translucent fill, darken twice where they overlap.
 * Shapes are in image (CSS) pixels already (projection/pixels.ts), so d3-geo's path writer
 * runs without a projection; `pixelRatio` real pixels per CSS pixel sets the precision.
 * `paints`, one per shape, give a styled picture's features their class's or rule's
 * colours, written on their own paths over the group's.
 */
export function featuresSvg(shapes: readonly Shape[], style: DrawStyle, pixelRatio: number, paints?: readonly (FeaturePaint | undefined)[]): string {
  const path = geoPath().digits(digitsFor(pixelRatio)).pointRadius(style.pointRadius);
  const strokeDrawn = style.lineWidth > 0 && style.lineColor.a > 0;
  let paths = '';
  shapes.forEach((shape, index) => {
    const geometry = shapeToGeoJson(shape);
    if (geometry?.type === 'MultiPolygon') windForUnion(geometry.coordinates);
    const d = geometry && path(geometry);
    if (!d) return;
    const own = paints?.[index];
    switch (shape.kind) {
      case 'lines': {
        // A line has no fill: its class's (or rule's) colour is its stroke's, unless the rule gives a line colour.
        const ownStroke = own && ownStrokeAttributes({ ...own, lineColor: own.lineColor ?? own.fillColor }, style);
        if (ownStroke === undefined ? strokeDrawn : ownStroke !== NO_STROKE) paths += `<path d="${d}" fill="none"${ownStroke ?? ''}/>`;
        break;
      }
      case 'points':
      case 'polygons': {
        const ownStroke = own && ownStrokeAttributes(own, style);
        // Nonzero (SVG's default): overlapping symbols of one MultiPoint do not cancel each other out.
        paths += `<path d="${d}"${own?.fillColor ? paint('fill', own.fillColor, style.fillOpacity) : ''}${ownStroke ?? ''}/>`;
      }
    }
  });
  if (!paths) return '';
  const stroke = strokeDrawn ? `${paint('stroke', style.lineColor)} stroke-width="${style.lineWidth}"` : NO_STROKE;
  return (
    `<g${paint('fill', style.fillColor, style.fillOpacity)}${stroke}` +
    ` stroke-linejoin="round" stroke-linecap="round">${paths}</g>`
  );
}

const NO_STROKE = ' stroke="none"';

/** A feature's own outline attributes where its paint changes the style's outline; undefined when it changes nothing. */
function ownStrokeAttributes(own: FeaturePaint, style: DrawStyle): string | undefined {
  if (own.lineColor === undefined && own.lineWidth === undefined) return undefined;
  const colour = own.lineColor ?? style.lineColor;
  const width = own.lineWidth ?? style.lineWidth;
  if (width <= 0 || colour.a <= 0) return NO_STROKE;
  return `${paint('stroke', colour)} stroke-width="${width}"`;
}

/**
 * Winds each polygon's outer ring positively (by its signed area) and its holes negatively,
 * in place: under the nonzero rule a hole then cuts its own polygon, and where polygons
 * overlap the windings add up instead of cancelling.
 */
function windForUnion(polygons: Position[][][]): void {
  for (const rings of polygons) {
    rings.forEach((ring, index) => {
      const outer = index === 0;
      if (signedArea(ring) > 0 !== outer) ring.reverse();
    });
  }
}

/** Twice the ring's signed area (shoelace); its sign says which way it winds. */
function signedArea(ring: readonly Position[]): number {
  let area = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) area += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  return area;
}
