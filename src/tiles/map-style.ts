/**
 * The MapLibre style of a layer's vector tiles (docs/tiles.md, "Style JSON"): the tiles'
 * colours written as MapLibre paint properties, from the same style and classes the raster
 * tiles are drawn with, so that a MapLibre GL page draws our vector tiles as our PNGs look.
 * Classes are told apart by the class each feature carries (CLASS_PROPERTY), which holds for
 * a field's classes and a theme's rules alike. Pure: the URLs come from the caller.
 */
import { formatColour, parseColour } from '../params/colour.ts';
import type { DrawStyle, Rgba } from '../svg/style.ts';
import { colouredPaint, type NamedOutline } from '../thematic/class-outline.ts';
import type { Legend } from '../thematic/legend.ts';
import { CLASS_PROPERTY } from '../vector-tile/encode.ts';


export interface StyleOf {
  /** The vector tiles' layer: the file's name as spelled on disk. */
  layer: string;
  /** What the file holds, as GeoJSON types: which of fill, line and circle layers the style needs. */
  geometryTypes: readonly string[];
  style: DrawStyle;
  /** With classes: the legend whose colours the classes take, and the outline parts the request named. */
  classes?: { legend: Legend; outline: NamedOutline };
  tileJsonUrl: string;
  /** The basemap's raster tiles, drawn under the layer; absent: none. */
  basemap?: { tiles: string };
  /** The map operation's URL for the same parameters (without zoom): the static picture of a view. */
  mapUrl: string;
}

type Expression = string | number | unknown[];

export function mapStyle({ layer, geometryTypes, style, classes, tileJsonUrl, basemap, mapUrl }: StyleOf): object {
  const has = (kind: string) => geometryTypes.some((type) => type.includes(kind));
  const from = { source: 'shapeshot', 'source-layer': layer };
  const paints = classes?.legend.classes.map((entry) => colouredPaint(parseColour(entry.color) ?? style.fillColor, classes.outline));
  /** A paint part per class where there are classes, else the style's own. */
  const byClass = (part: (paint: { fillColor: Rgba; lineColor: Rgba; lineWidth: number }) => string | number, plain: string | number): Expression =>
    paints ? ['match', ['get', CLASS_PROPERTY], ...paints.flatMap((paint, index) => [index, part(paint)]), plain] : plain;
  const colour = (rgba: Rgba) => formatColour(rgba).hex;
  const opacity = (rgba: Rgba) => formatColour(rgba).opacity;
  const plain = { fillColor: style.fillColor, lineColor: style.lineColor, lineWidth: style.lineWidth };
  const layers: object[] = basemap ? [{ id: 'basemap', type: 'raster', source: 'basemap' }] : [];
  if (has('Polygon')) {
    layers.push({
      id: 'shapeshot-fill',
      type: 'fill',
      ...from,
      filter: ['==', ['geometry-type'], 'Polygon'],
      paint: { 'fill-color': byClass((paint) => colour(paint.fillColor), colour(plain.fillColor)), 'fill-opacity': opacity(style.fillColor) * style.fillOpacity },
    });
  }
  if (has('Polygon') || has('LineString')) {
    layers.push({
      id: 'shapeshot-line',
      type: 'line',
      ...from,
      filter: ['!=', ['geometry-type'], 'Point'],
      paint: {
        'line-color': byClass((paint) => colour(paint.lineColor), colour(plain.lineColor)),
        'line-width': byClass((paint) => paint.lineWidth, plain.lineWidth),
        'line-opacity': opacity(style.lineColor),
      },
    });
  }
  if (has('Point')) {
    layers.push({
      id: 'shapeshot-circle',
      type: 'circle',
      ...from,
      filter: ['==', ['geometry-type'], 'Point'],
      paint: {
        'circle-radius': style.pointRadius,
        'circle-color': byClass((paint) => colour(paint.fillColor), colour(plain.fillColor)),
        'circle-stroke-color': byClass((paint) => colour(paint.lineColor), colour(plain.lineColor)),
        'circle-stroke-width': byClass((paint) => paint.lineWidth, plain.lineWidth),
      },
    });
  }
  return {
    version: 8,
    name: layer,
    metadata: { ...(classes ? { 'shapeshot:legend': classes.legend } : {}), 'shapeshot:mapUrl': mapUrl },
    sources: {
      ...(basemap ? { basemap: { type: 'raster', tiles: [basemap.tiles], tileSize: 256 } } : {}),
      shapeshot: { type: 'vector', url: tileJsonUrl },
    },
    layers,
  };
}
