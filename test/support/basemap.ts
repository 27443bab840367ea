/** Helpers for basemap plugin tests: build a view, and rasterize what a provider returns. */
import { Resvg } from '@resvg/resvg-js';
import pino from 'pino';
import type { Basemap, MapView, ProviderContext } from '../../src/sdk/plugin.ts';
import { decodePng, type DecodedPng } from './png.ts';

export const testContext = (name: string): ProviderContext => ({ name, logger: pino({ level: 'silent' }), userAgent: 'shapeshot-test' });

/** A view whose top-left corner is world pixel (left, top) at `zoom`. */
export function viewAt(zoom: number, left: number, top: number, width = 256, height = 256): MapView {
  const world = 256 * 2 ** zoom;
  const lon = (x: number) => (x / world) * 360 - 180;
  const lat = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / world))) * 180) / Math.PI;
  return {
    zoom,
    width,
    height,
    devicePixelRatio: 1,
    left,
    top,
    centre: { lon: lon(left + width / 2), lat: lat(top + height / 2) },
    bounds: { west: lon(left), south: lat(top + height), east: lon(left + width), north: lat(top) },
  };
}

/** The view of `zoom` centred on a lon/lat, as the map operation would build it. */
export function viewCentredOn(lon: number, lat: number, zoom: number, width = 320, height = 240): MapView {
  const world = 256 * 2 ** zoom;
  const x = ((lon + 180) / 360) * world;
  const y = ((1 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / Math.PI) / 2) * world;
  return viewAt(zoom, Math.round(x - width / 2), Math.round(y - height / 2), width, height);
}

/** The basemap's layers (below, then above) as one SVG, rasterized. */
export function rasterizeBasemap(basemap: Basemap, view: MapView): DecodedPng {
  const layers = [basemap.below, basemap.above ?? {}]
    .map(
      (layer) =>
        (layer.images ?? [])
          .map(
            (image) =>
              `<image x="${image.x}" y="${image.y}" width="${image.width}" height="${image.height}" preserveAspectRatio="none"` +
              ` href="data:${image.mime};base64,${Buffer.from(image.bytes).toString('base64')}"/>`,
          )
          .join('') +
        (layer.svg ?? '') +
        (layer.labels ?? []).map((label) => label.svg).join(''),
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${view.width}" height="${view.height}">${layers}</svg>`;
  const fonts = { loadSystemFonts: false, fontFiles: basemap.fonts ?? [], defaultFontFamily: 'Noto Sans' };
  return decodePng(new Resvg(svg, { font: fonts }).render().asPng());
}
