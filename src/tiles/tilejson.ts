/**
 * A layer's TileJSON 3.0.0 (docs/tiles.md, "TileJSON"): where its tiles are, with the
 * request's own parameters, over which box and zooms, and, for vector tiles, the layer and
 * the fields its features carry. Pure: the URLs and the file's facts come from the caller.
 */
import type { BBox } from '../geometry/types.ts';
import { MAX_TILE_ZOOM, MIN_TILE_ZOOM } from '../projection/tile-address.ts';
import type { AttributeField, AttributeType } from '../shapefile/dbf.ts';
import { CLASS_PROPERTY } from '../vector-tile/encode.ts';

export interface TileJsonOf {
  layer: string;
  /** The tiles' URL template, {z}/{x}/{y} left for the client. */
  tiles: string;
  format: 'mvt' | 'png';
  /** The file's box in WGS 84; the whole Web Mercator world when its CRS is unknown. */
  lonLatBBox?: BBox;
  /** The fields the vector tiles carry, as the file types them. */
  fields: readonly AttributeField[];
  /** Whether the features carry their class. */
  classed: boolean;
  attribution: string;
}

/** The zoom at which a box of this width in degrees about fills a 512-px view. */
function fittingZoom(box: BBox): number {
  const degrees = Math.max(box.xmax - box.xmin, (box.ymax - box.ymin) * 1.5, 1e-9);
  return Math.max(MIN_TILE_ZOOM, Math.min(MAX_TILE_ZOOM, Math.floor(Math.log2((360 * 2) / degrees))));
}

const TILEJSON_TYPES: Record<AttributeType, string> = { string: 'String', number: 'Number', boolean: 'Boolean', date: 'String' };

export function tileJson({ layer, tiles, format, lonLatBBox, fields, classed, attribution }: TileJsonOf): object {
  const box = lonLatBBox ?? { xmin: -180, ymin: -85.0511287798066, xmax: 180, ymax: 85.0511287798066 };
  const bounds = [box.xmin, box.ymin, box.xmax, box.ymax].map((value) => Math.round(value * 1e7) / 1e7);
  const vectorFields = Object.fromEntries([
    ...fields.map((field) => [field.name, TILEJSON_TYPES[field.type]]),
    ...(classed ? [[CLASS_PROPERTY, 'Number']] : []),
  ]);
  return {
    tilejson: '3.0.0',
    name: layer,
    scheme: 'xyz',
    tiles: [tiles],
    ...(attribution ? { attribution } : {}),
    bounds,
    center: [(bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2, fittingZoom(box)],
    minzoom: MIN_TILE_ZOOM,
    maxzoom: MAX_TILE_ZOOM,
    ...(format === 'mvt' ? { vector_layers: [{ id: layer, fields: vectorFields, minzoom: MIN_TILE_ZOOM, maxzoom: MAX_TILE_ZOOM }] } : {}),
  };
}
