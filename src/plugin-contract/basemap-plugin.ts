/**
 * The types and constants of the plugin contract: what a basemap plugin is, what its
 * providers are asked and what they answer. The SDK's entry (sdk/plugin.ts) publishes them
 * to plugins; the core imports them from here, below everything that uses them, because the
 * entry re-exports the core and sits above it.
 */
/** The SDK's major version. A plugin's default export names the one it was written for. */
export const SDK_VERSION = 1;

export const MAP_TYPES = ['Road', 'Aerial', 'AerialWithLabels'] as const;
export type MapType = (typeof MAP_TYPES)[number];

export const CULTURES = ['English', 'Dutch'] as const;
export type Culture = (typeof CULTURES)[number];

/**
 * What the map image shows, in Web Mercator world pixels (see web-mercator: origin at
 * 180°W, 85.0511°N, y down; the world is 256 * 2^zoom pixels wide at `zoom`).
 *
 * Sizes and positions are CSS pixels. The image itself has `devicePixelRatio` real pixels
 * for each of them (a `scale=2` map): layers are still placed in CSS pixels, and a plugin
 * that can may send denser images (a 512-px tile over 256 CSS pixels) or thinner lines.
 */
export interface MapView {
  /** Integer zoom level, MIN_ZOOM–MAX_ZOOM. */
  zoom: number;
  /** Image size in CSS pixels. */
  width: number;
  height: number;
  /** Real pixels per CSS pixel: 1, 2 or 3. */
  devicePixelRatio: number;
  /**
   * World pixel of the image's top-left corner, always a whole number: image pixel
   * (px, py) is world pixel (left + px, top + py).
   */
  left: number;
  top: number;
  /** The image centre and bounds in degrees (WGS 84). */
  centre: { lon: number; lat: number };
  bounds: { west: number; south: number; east: number; north: number };
}

export interface BasemapRequest {
  view: MapView;
  type: MapType;
  culture: Culture;
  /** Aborted when the map's client has gone or its time is spent: stop fetching then. */
  signal: AbortSignal;
}

/** An encoded raster image (a tile) covering width × height CSS pixels from image pixel (x, y). */
export interface PlacedImage {
  x: number;
  y: number;
  width: number;
  height: number;
  mime: 'image/png' | 'image/jpeg' | 'image/webp';
  bytes: Uint8Array;
}

/** Part of the map drawn by a provider, in image (CSS) pixels. */
export interface BasemapLayer {
  images?: PlacedImage[];
  /** SVG elements (no <svg> root), drawn after the images. */
  svg?: string;
  /** Drawn last, one by one: a map that labels its features leaves out those its features' labels collide with. */
  labels?: BasemapLabel[];
}

/**
 * A label the provider draws itself, as a map that labels its features may leave it out: one
 * whose box meets a feature label's, or whose text a feature label writes, is not drawn
 * (the feature's label wins; docs/api.md, "Basemap labels").
 */
export interface BasemapLabel {
  /** What it reads, as drawn. */
  text: string;
  /** The room it takes, image (CSS) pixels: its text, halo and the spacing the provider keeps between its labels. */
  box: { xmin: number; ymin: number; xmax: number; ymax: number };
  /** Its SVG element(s), complete in themselves (font, size, colours): drawn as they are. */
  svg: string;
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

/** The logging a plugin gets (pino's signature: an object of fields, then the message). */
export interface PluginLogger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}

/**
 * What a provider that fetches tiles (or whole images) over the network reports of them, for
 * the operator's metrics (/metrics), counted per provider.
 */
export interface ProviderMetrics {
  /** A tile was answered from the provider's cache, in memory or on disk. */
  tileCacheHit(): void;
  /** A tile had to be fetched from the provider's server. */
  tileCacheMiss(): void;
  /** A tile could not be fetched (no answer in time, an error, not an image), after any retries. */
  tileFetchError(): void;
}

/** What a plugin's factory gets besides its own options. */
export interface ProviderContext {
  /** The provider id from the configuration. */
  name: string;
  logger: PluginLogger;
  /** User-Agent for outgoing HTTP requests. */
  userAgent: string;
  /** Folder for on-disk caches, when the operator configured one. */
  cacheDir?: string;
  /** Where to count tile-cache hits, misses and fetch errors; absent when the server keeps no metrics. */
  metrics?: ProviderMetrics;
}

/**
 * A basemap plugin: the default export of its module. `create` validates its own options
 * (throwing an Error naming the bad option) and returns the provider.
 */
export interface BasemapPlugin {
  /**
   * The SDK version the plugin was written for, as a number (`sdkVersion: 1`), not as the
   * SDK_VERSION import, which is always the running shapeshot's: another version stops
   * start-up, naming the plugin and both versions.
   */
  sdkVersion: typeof SDK_VERSION;
  create(options: Record<string, unknown>, context: ProviderContext): BasemapProvider | Promise<BasemapProvider>;
}

/** Types a plugin's default export: `export default definePlugin({ sdkVersion: 1, create… })`. */
export function definePlugin(plugin: BasemapPlugin): BasemapPlugin {
  return plugin;
}
