/**
 * The contract between the map operation and basemap providers (plugins/<name>/).
 *
 * A provider receives the view (Web Mercator, 256-px tiles, integer zoom), the map type and
 * the culture, and returns layers to draw under (and optionally over) the features: SVG
 * fragments in image pixels and/or raster images placed at pixel positions, plus its
 * attribution text. It reports failure by throwing BasemapUnavailableError (503 naming the
 * provider, or the configured fallback); anything else it throws is a 500.
 */
import type { Logger } from 'pino';
import { ServiceError } from '../errors.ts';

export const MAP_TYPES = ['Road', 'Aerial', 'AerialWithLabels'] as const;
export type MapType = (typeof MAP_TYPES)[number];

export const CULTURES = ['English', 'Dutch'] as const;
export type Culture = (typeof CULTURES)[number];

/** What the map image shows. Web Mercator, world = 256 * 2^zoom pixels at this zoom. */
export interface MapView {
  /** Integer zoom level, 1–22. */
  zoom: number;
  /** Image size in pixels. */
  width: number;
  height: number;
  /**
   * World-pixel coordinates (origin at 180°W, 85.0511°N; x right, y down) of the image's
   * top-left corner; may be fractional. Image pixel (px, py) is world pixel (left + px, top + py).
   */
  left: number;
  top: number;
  /** The image centre and bounds in lon/lat degrees (WGS84). */
  centre: { lon: number; lat: number };
  bounds: { west: number; south: number; east: number; north: number };
}

export interface BasemapRequest {
  view: MapView;
  type: MapType;
  culture: Culture;
  /** Aborted when the request's time budget is spent; providers stop fetching then. */
  signal: AbortSignal;
}

/** An encoded raster image (a tile) placed on the map at image pixel (x, y). */
export interface PlacedImage {
  x: number;
  y: number;
  width: number;
  height: number;
  mime: 'image/png' | 'image/jpeg' | 'image/webp';
  bytes: Uint8Array;
}

/** Part of the map drawn by a provider, in image pixels. */
export interface BasemapLayer {
  images?: PlacedImage[];
  /** SVG elements (no <svg> root), drawn after the images. */
  svg?: string;
}

export interface Basemap {
  /** Drawn under the features. */
  below: BasemapLayer;
  /** Drawn over the features (labels, for instance). */
  above?: BasemapLayer;
  /** Shown in the map's bottom-right corner and appended to the envelope's Copyright. */
  attribution: string;
  /** Absolute paths of the TrueType/OpenType fonts the SVG's text uses. */
  fonts?: string[];
}

export interface BasemapProvider {
  /** The configured provider id, for messages. */
  readonly name: string;
  render(request: BasemapRequest): Promise<Basemap>;
  close?(): Promise<void>;
}

/** What a plugin's factory gets besides its own options. */
export interface ProviderContext {
  /** The provider id from the configuration. */
  name: string;
  logger: Logger;
  /** User-Agent for outgoing HTTP requests. */
  userAgent: string;
  /** Folder for on-disk caches, when the operator configured one. */
  cacheDir?: string;
}

/**
 * A basemap plugin: a module in plugins/<name>/index.ts whose default export is this.
 * `create` validates its own options (throwing an Error naming the bad option) and
 * returns the provider.
 */
export interface BasemapPlugin {
  create(options: Record<string, unknown>, context: ProviderContext): BasemapProvider | Promise<BasemapProvider>;
}

/** A provider that failed or timed out: 503 naming it, with Retry-After. */
export class BasemapUnavailableError extends ServiceError {
  constructor(provider: string, reason: string, retryAfterSeconds = 5) {
    super(503, `Basemap provider '${provider}' is unavailable: ${reason}`, retryAfterSeconds);
  }
}
