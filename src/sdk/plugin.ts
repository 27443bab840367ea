/**
 * The plugin SDK: the whole contract between shapeshot and its plugins (basemap providers,
 * and data sources: plugin-contract/data-source-plugin.ts), published as
 * `shapeshot/plugin`. A plugin imports this module and nothing else of shapeshot; what it
 * exports is versioned by SDK_VERSION (its major version: a change that breaks a plugin
 * raises it).
 *
 * A plugin is a module whose default export is a BasemapPlugin. The server creates one
 * provider per configured id at start-up (create), then asks it for the basemap of every
 * map (render): layers to draw under, and optionally over, the features, in image pixels.
 * A data-source plugin's default export is a DataSourcePlugin (`kind: 'data'`): the server
 * creates its source and reads the catalog and byte ranges of files through it.
 *
 * This entry re-exports parts of the core (the style vocabulary, worker pools, caches), so it
 * stands above them and nothing of src/ imports it; the contract it publishes lives below
 * the core, in plugin-contract/, where the core imports it.
 */
export { BasemapUnavailableError, isBasemapUnavailable, untilAborted } from '../plugin-contract/unavailable.ts';
export { tilesCovering, type TilePlacement } from './tile-grid.ts';
export {
  EARTH_RADIUS,
  HALF_WORLD,
  MAX_MERCATOR_LATITUDE,
  MAX_ZOOM,
  MIN_ZOOM,
  TILE_SIZE,
  lonLatToWorldPixel,
  mercatorX,
  mercatorY,
  pixelsPerMetre,
  toLonLat,
  worldPixelToLonLat,
  worldPixelToMetres,
  worldSize,
} from '../projection/web-mercator.ts';
export { viewBoundsInMetres } from './view-bounds.ts';
// The box of coordinates kept as the core keeps them (x, y interleaved in a Float64Array).
export { shapesBBox } from '../geometry/shape.ts';
export { boundedBody } from '../plugin-contract/bounded-body.ts';
// Tiles and map images are held against a size bound before anything decodes them.
export { declaredImageSize, imageSizeProblem, MAX_TILE_PIXELS, type ImageSize } from '../plugin-contract/image-size.ts';
// Caches bounded by the bytes they really hold, keys included, as the service's own are.
export { arrayBytes, byteBoundedCache, OBJECT_BYTES, stringBytes, type ByteBoundedCache } from '../structures/byte-bounded-cache.ts';
// The style vocabulary: colours as the service's parameters and themes spell them, and the
// SVG attributes that paint them.
export { parseColour } from '../params/colour.ts';
export { hex, paint, stopPaint } from '../svg/paint.ts';
export type { Rgba } from '../svg/style.ts';
export { escapeXml } from '../xml-text.ts';
// Work too heavy for the event loop goes to a plugin's own worker threads.
export { createWorkerPool, type RunOptions, type WorkerPool, type WorkerPoolOptions } from '../workers/worker-pool.ts';
export { serveJobs, workerOptions, type Handled, type JobContext, type JobHandler } from '../workers/serve-jobs.ts';
export * from '../plugin-contract/basemap-plugin.ts';
// Data sources (kind: 'data'): where shapefiles are read from by byte ranges, and how they say they cannot answer.
export * from '../plugin-contract/data-source-plugin.ts';
export { DataSourceUnavailableError, FileChangedError, isDataSourceUnavailable, isFileChanged } from '../plugin-contract/data-source-errors.ts';
