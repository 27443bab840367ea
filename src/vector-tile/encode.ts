/**
 * One Mapbox Vector Tile (2.1) of a layer's features, given in Web Mercator metres (docs/tiles.md,
 * "Vector tiles: geometry"): one layer named after the file, each feature with its id, its
 * attributes, and its geometry moved into tile units, simplified, clipped to the tile and its
 * buffer and put on the grid. Pure: the caller reads the features and sends the bytes.
 */
import { StepPacer, type Checkpoint } from '../cancellation/checkpoint.ts';
import type { Shape } from '../geometry/shape.ts';
import { simplifyShape } from '../geometry/simplify.ts';
import type { TileAddress } from '../projection/tile-address.ts';
import type { AttributeValue } from '../shapefile/dbf.ts';
import { encodeLayer, type LayerFeature } from './mvt-layer.ts';
import { tileGeometry } from './tile-geometry.ts';
import { EXTENT, tileFrame, toTileUnits } from './tile-units.ts';

export { BUFFER, EXTENT } from './tile-units.ts';

/** The property a styled layer's features carry: their class's place in the legend, which a style colours by (docs/tiles.md, "Vector tiles"). */
export const CLASS_PROPERTY = 'shapeshot_class';

export interface TileFeature {
  /** The feature's id in the tile (its fid); a feature without one has none in the tile. */
  id?: number;
  /** In Web Mercator metres (EPSG:3857). */
  shape: Shape;
  /** Null values are left out. */
  properties: Readonly<Record<string, AttributeValue>>;
}

export interface VectorTileOptions {
  /**
   * Douglas–Peucker's tolerance in tile units (16 to a pixel of a 256-px tile); default
   * SIMPLIFY_TOLERANCE. A caller past a tile's vertex budget passes more.
   */
  tolerance?: number;
}

/**
 * One tile unit: a sixteenth of a pixel, invisible even on a 512-px (@2x) tile overzoomed two
 * levels, yet it drops the vertices of a detailed line that only rounding to the grid would
 * have kept apart.
 */
export const SIMPLIFY_TOLERANCE = 1;

/**
 * The tile `tile` of `features`, as MVT bytes. A feature with nothing left in the tile and its
 * buffer is left out; with no feature left the tile is one empty layer, which every reader
 * takes. Linear in the features' vertices; `checkpoint` runs every few tens of thousands.
 */
export function encodeVectorTile(
  layerName: string,
  tile: TileAddress,
  features: Iterable<TileFeature>,
  checkpoint: Checkpoint,
  options: VectorTileOptions = {},
): Uint8Array {
  const frame = tileFrame(tile);
  const tolerance = options.tolerance ?? SIMPLIFY_TOLERANCE;
  const pacer = new StepPacer(checkpoint);
  const kept: LayerFeature[] = [];
  for (const { id, shape, properties } of features) {
    pacer.step();
    const geometry = tileGeometry(simplifyShape(toTileUnits(shape, frame, pacer), tolerance, checkpoint), pacer);
    if (geometry) kept.push({ id, properties, ...geometry });
  }
  const bytes = encodeLayer(layerName, EXTENT, kept);
  // pbf's buffer grows by doubling: a copy of exactly the tile's bytes is what crosses threads and is kept in caches.
  return bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}
