/**
 * One 256-px tile of the configured basemap, on a worker thread (docs/tiles.md, "Basemap
 * tiles"): what the map operation draws under its features, drawn alone for a slippy map's
 * raster source, so that a MapLibre page shows our vector tiles over the same basemap our
 * static maps use, whichever provider draws it (embedded, XYZ, PMTiles, WMS).
 */
import type { Basemap } from '../plugin-contract/basemap-plugin.ts';
import { TILE_SIZE } from '../projection/web-mercator.ts';
import { encodeImage } from '../raster/rasterize.ts';
import type { DrawStyle, Rgba } from '../svg/style.ts';
import type { Handled } from '../workers/serve-jobs.ts';
import type { DrawingContext } from '../job-context/context.ts';
import { mapPixels, tilesLaidApart } from './draw-map.ts';

export interface BasemapTileJob {
  /** The provider's layers for the tile's view (labels included: there are no features for them to give way to). */
  basemap: Basemap;
  pixelRatio: number;
}

const NOTHING: Rgba = { r: 0, g: 0, b: 0, a: 0 };
/** No features are drawn: a style that paints nothing. */
const NO_FEATURES: DrawStyle = { lineColor: NOTHING, lineWidth: 0, fillColor: NOTHING, fillOpacity: 0, pointRadius: 0, background: { color1: NOTHING, angle: 0 } };

export function drawBasemapTile(job: BasemapTileJob, context: DrawingContext): Handled<{ bytes: Uint8Array }> {
  const { basemap, underTiles } = tilesLaidApart(job.basemap);
  const picture = { width: TILE_SIZE, height: TILE_SIZE, pixelRatio: job.pixelRatio, basemap, shapes: [], style: NO_FEATURES };
  const canvas = mapPixels(context, picture, underTiles);
  const side = TILE_SIZE * job.pixelRatio;
  const bytes = encodeImage(canvas, { width: side, height: side, compressionLevel: context.compressionLevel }, context.lap);
  return { result: { bytes }, transfer: [bytes.buffer as ArrayBuffer] };
}
