/**
 * Draws the embedded basemap of one view as SVG: water, land, coasts and borders below the
 * features, country labels above them, each a label of its own that a map labelling its
 * features may leave out. Only shapes whose box meets the view are written, each
 * scaled from zoom-0 world pixels and clipped to the image (plus a margin that hides the
 * clip edges' strokes), with coordinates rounded to 0.1 px.
 */
import { geoIdentity, geoPath } from 'd3-geo';
import {
  escapeXml,
  lonLatToWorldPixel,
  paint,
  stopPaint,
  worldPixelToLonLat,
  type BasemapLabel,
  type Culture,
  type MapType,
  type MapView,
} from '../../src/sdk/plugin.ts';
import type { Box } from './box.ts';
import { labelFontSize, minLabelRoom, placeLabels } from './labels.ts';
import { labelSitesMeeting, piecesInView, worldLayers, type Detail, type WorldLayer } from './natural-earth.ts';
import { geometryOf } from './quad-split.ts';
import { colourAtLatitude, MAP_STYLES, type LatitudeColour, type MapStyle, type Stroke } from './styles.ts';
import { worldCopyOffsets } from './world-pixels.ts';

export const FONT_FAMILY = 'Noto Sans';

/** Pixels drawn beyond the image on every side, wider than any stroke, so clip edges stay unseen. */
const CLIP_MARGIN = 8;
/** Shapes smaller than this (pixels, both ways) are left out: islands below a pixel add only bytes. */
const MIN_SHAPE_SIZE = 1;
const LAND_GRADIENT_ID = 'basemap-embedded-land';

export interface DrawnBasemap {
  below: string;
  /** Drawn over the features; none on a style without labels. */
  labels: BasemapLabel[];
}

/**
 * 1:110m for the world at a glance, 1:50m for continents, 1:10m from regions on down, each
 * thinned to what the zoom can show (0.4 px) so the SVG stays small.
 */
export function detailForZoom(zoom: number): Detail {
  if (zoom <= 2) return { scale: '110m', zoom: 2 };
  if (zoom <= 4) return { scale: '50m', zoom: Math.max(zoom, 3) };
  if (zoom <= 6) return { scale: '10m', zoom: 6 };
  return { scale: '10m' };
}

export function drawBasemap(view: MapView, type: MapType, culture: Culture): DrawnBasemap {
  const style = MAP_STYLES[type];
  const layers = worldLayers(detailForZoom(view.zoom));
  const offsets = worldCopyOffsets(view);
  const path = (layer: WorldLayer, minSize = 0) => pathOf(layer, view, offsets, minSize);
  const parts = [`<rect width="${view.width}" height="${view.height}"${paint('fill', style.water)}/>`];
  const land = path(layers.land, MIN_SHAPE_SIZE);
  if (land !== '') {
    if (style.shallows !== undefined) {
      parts.push(`<path d="${path(layers.coasts, MIN_SHAPE_SIZE)}" fill="none"${strokeAttributes(style.shallows, view.zoom)}/>`);
    }
    if (Array.isArray(style.land)) {
      parts.push(latitudeGradient(style.land, view), `<path d="${land}" fill="url(#${LAND_GRADIENT_ID})"/>`);
    } else {
      parts.push(`<path d="${land}"${paint('fill', style.land)}/>`);
    }
  }
  if (style.borders !== undefined) {
    const borders = path(layers.borders);
    if (borders !== '') parts.push(`<path d="${borders}" fill="none"${strokeAttributes(style.borders, view.zoom)}/>`);
  }
  return { below: parts.join(''), labels: style.labels ? countryLabels(style.labels, view, culture, offsets) : [] };
}

/** The shapes meeting the view, as one SVG path (every copy of the world the view shows). */
function pathOf(layer: WorldLayer, view: MapView, offsets: readonly number[], minSize: number): string {
  const scale = 2 ** view.zoom;
  let d = '';
  for (const offset of offsets) {
    const visible = piecesInView(layer, worldView(view, offset, CLIP_MARGIN)).filter(
      ({ bbox }) => Math.max(bbox.xmax - bbox.xmin, bbox.ymax - bbox.ymin) * scale >= minSize,
    );
    if (visible.length === 0) continue;
    const projection = geoIdentity()
      .scale(scale)
      .translate([offset, -view.top])
      .clipExtent([
        [-CLIP_MARGIN, -CLIP_MARGIN],
        [view.width + CLIP_MARGIN, view.height + CLIP_MARGIN],
      ]);
    const path = geoPath(projection).digits(1);
    for (const piece of visible) d += path(geometryOf(piece)) ?? '';
  }
  return d;
}

/** What the image shows of the copy of the world at `offset`, and `margin` image pixels around it, in zoom-0 world pixels. */
function worldView(view: MapView, offset: number, margin: number): Box {
  const scale = 2 ** view.zoom;
  return {
    xmin: -offset / scale - margin / scale,
    xmax: (view.width - offset) / scale + margin / scale,
    ymin: view.top / scale - margin / scale,
    ymax: (view.top + view.height) / scale + margin / scale,
  };
}

function strokeAttributes(stroke: Stroke, zoom: number): string {
  const width = stroke.width * (1 + Math.min(zoom - 1, 6) / 6);
  return `${paint('stroke', stroke.colour)} stroke-width="${Math.round(width * 10) / 10}" stroke-linejoin="round"`;
}

/** A top-to-bottom gradient over the image with the land colours of the latitudes it spans. */
function latitudeGradient(colours: LatitudeColour[], view: MapView): string {
  const latitudeAt = (imageY: number) => worldPixelToLonLat(0, view.top + imageY, view.zoom).lat;
  const north = latitudeAt(0);
  const south = latitudeAt(view.height);
  const stops = [{ offset: 0, colour: colourAtLatitude(colours, north) }];
  for (const { latitude, colour } of colours) {
    if (latitude < north && latitude > south) {
      const y = (lonLatToWorldPixel(0, latitude, view.zoom).y - view.top) / view.height;
      stops.push({ offset: y, colour });
    }
  }
  stops.push({ offset: 1, colour: colourAtLatitude(colours, south) });
  const stopElements = stops.map(({ offset, colour }) => `<stop offset="${offset.toFixed(4)}"${stopPaint(colour)}/>`);
  return (
    `<defs><linearGradient id="${LAND_GRADIENT_ID}" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="0" y2="${view.height}">` +
    `${stopElements.join('')}</linearGradient></defs>`
  );
}

function countryLabels(colours: NonNullable<MapStyle['labels']>, view: MapView, culture: Culture, offsets: readonly number[]): BasemapLabel[] {
  const fontSize = labelFontSize(view.zoom);
  // The halo is the text's own stroke painted first, so a label reads over any background.
  const look =
    ` font-family="${FONT_FAMILY}" font-size="${fontSize}" text-anchor="middle"${paint('fill', colours.colour)}` +
    `${paint('stroke', colours.halo, 0.85)} stroke-width="2.5" stroke-linejoin="round" paint-order="stroke"`;
  const baselineShift = fontSize * 0.35;
  const sites = labelSitesMeeting(
    offsets.map((offset) => worldView(view, offset, 0)),
    minLabelRoom(view.zoom),
  );
  return placeLabels(sites, culture, view, offsets).map(({ text, x, y, box }) => ({
    text,
    box,
    svg: `<text x="${x.toFixed(1)}" y="${(y + baselineShift).toFixed(1)}"${look}>${escapeXml(text)}</text>`,
  }));
}
