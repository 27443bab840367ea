/**
 * The SVG document of a static map: the basemap's lower layer (tiles as embedded images at
 * their pixel positions, then its SVG), the features, the basemap's upper layer, and the
 * attribution in the bottom-right corner.
 */
import { Buffer } from 'node:buffer';
import type { Basemap, BasemapLayer, PlacedImage } from '../plugin-contract/basemap-plugin.ts';
import type { Shape } from '../geometry/shape.ts';
import { escapeXml } from '../xml-text.ts';
import { BUNDLED_FONT_FILE } from '../text/font.ts';
import { featuresSvg } from '../svg/features.ts';
import type { DrawStyle, FeaturePaint } from '../svg/style.ts';

const ATTRIBUTION_FONT_FAMILY = 'Noto Sans';
const ATTRIBUTION_FONT_SIZE = 11;
const ATTRIBUTION_MARGIN = 4;

export interface MapSvg {
  /** CSS pixels, the SVG's size: everything is placed in them. */
  width: number;
  height: number;
  /** Real pixels per CSS pixel the map is drawn at (the features' precision follows it). */
  pixelRatio: number;
  basemap: Basemap;
  /** The features in image pixels. */
  shapes: readonly Shape[];
  style: DrawStyle;
  /** The attribution, drawn beforehand as a PNG strip of the map's width in real pixels (attributionStripSvg). */
  attribution?: Uint8Array;
  /** A styled map's own paint per shape (its class's colour). */
  paints?: readonly (FeaturePaint | undefined)[];
  /** Drawn over the features and the basemap's upper layer: a styled map's labels and legend. */
  overlay?: string;
}

/** Height of the strip the attribution is drawn in, at the map's bottom. */
export const ATTRIBUTION_STRIP_HEIGHT = 24;

/** The SVG, and the font files its text needs (none when there is no text). */
export function renderMapSvg({ width, height, pixelRatio, basemap, shapes, style, attribution, paints, overlay }: MapSvg): { svg: string; fonts: string[] } {
  const attributionStrip: PlacedImage | undefined = attribution && {
    x: 0,
    y: height - ATTRIBUTION_STRIP_HEIGHT,
    width,
    height: ATTRIBUTION_STRIP_HEIGHT,
    mime: 'image/png',
    bytes: attribution,
  };
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    layerSvg(basemap.below) +
    featuresSvg(shapes, style, pixelRatio, paints) +
    (basemap.above ? layerSvg(basemap.above) : '') +
    (overlay ?? '') +
    (attributionStrip ? imageSvg(attributionStrip) : '') +
    '</svg>';
  return { svg, fonts: [...new Set(basemap.fonts ?? [])] };
}

/**
 * The attribution alone, right-aligned on a transparent strip `width` pixels wide: drawn once
 * per text and width and kept, since loading its font costs resvg about 2 ms a map.
 */
export function attributionStripSvg(text: string, width: number): { svg: string; height: number; fonts: string[] } {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${ATTRIBUTION_STRIP_HEIGHT}">` +
    attributionSvg(text, width, ATTRIBUTION_STRIP_HEIGHT) +
    '</svg>';
  return { svg, height: ATTRIBUTION_STRIP_HEIGHT, fonts: [BUNDLED_FONT_FILE] };
}

function layerSvg(layer: BasemapLayer): string {
  return (layer.images ?? []).map(imageSvg).join('') + (layer.svg ?? '') + (layer.labels ?? []).map((label) => label.svg).join('');
}

export function imageSvg(image: PlacedImage): string {
  const uri = `data:${image.mime};base64,${Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.length).toString('base64')}`;
  return (
    `<image x="${image.x}" y="${image.y}" width="${image.width}" height="${image.height}"` +
    ` preserveAspectRatio="none" href="${uri}"/>`
  );
}

/** Small dark text with a light halo, so it reads on any basemap. */
function attributionSvg(text: string, width: number, height: number): string {
  return (
    `<text x="${width - ATTRIBUTION_MARGIN}" y="${height - ATTRIBUTION_MARGIN}" text-anchor="end"` +
    ` font-family="${ATTRIBUTION_FONT_FAMILY}" font-size="${ATTRIBUTION_FONT_SIZE}" fill="#333333"` +
    ` stroke="#ffffff" stroke-opacity="0.85" stroke-width="3" stroke-linejoin="round" paint-order="stroke">` +
    `${escapeXml(text)}</text>`
  );
}

