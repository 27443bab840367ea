/**
 * The documents of OGC API – Tiles over a collection (docs/ogc.md, "OGC API – Tiles"): the
 * list of its tilesets and each tileset's metadata (OGC 20-057, with 17-083r4's tileset
 * metadata), for its vector tiles and its map tiles in WebMercatorQuad. The tiles themselves
 * are the REST tiles' (routes/tiles.ts); these say where they are and what they hold. Pure.
 */
import type { CollectionFacts } from '../ogc-jobs/feature-items.ts';
import { MAX_TILE_ZOOM, MIN_TILE_ZOOM } from '../projection/tile-address.ts';
import { collectionHref, CRS84, MEDIA_TYPES, type Link } from './links.ts';
import { TILING_SCHEME_REL, tileMatrixSetHref, tileMatrixSetLimits, WEB_MERCATOR_CRS, WEB_MERCATOR_QUAD, WEB_MERCATOR_QUAD_URI } from './tile-matrix-set.ts';

/** What a collection's tiles are: vector tiles of its features, or pictures of them drawn as the images operation draws. */
export type TileKind = 'vector' | 'map';

/** Each kind: where its tilesets are below the collection, what its tiles are, and how the collection links to them. */
export const TILE_KINDS = {
  vector: { path: 'tiles', format: 'mvt', mediaType: 'application/vnd.mapbox-vector-tile', rel: 'http://www.opengis.net/def/rel/ogc/1.0/tilesets-vector', what: 'Vector tiles' },
  map: { path: 'map/tiles', format: 'png', mediaType: 'image/png', rel: 'http://www.opengis.net/def/rel/ogc/1.0/tilesets-map', what: 'Map tiles' },
} as const satisfies Record<TileKind, { path: string; format: string; mediaType: string; rel: string; what: string }>;

/** The link relation from a tileset to the collection it tiles. */
const GEODATA_REL = 'http://www.opengis.net/def/rel/ogc/1.0/geodata';

/** The dimension OGC API – Tiles gives a layer's geometry: 0 points, 1 lines, 2 areas. */
const GEOMETRY_DIMENSIONS: Record<string, number> = { Point: 0, MultiPoint: 0, LineString: 1, MultiLineString: 1, Polygon: 2, MultiPolygon: 2 };

/** The links a collection's document gives to its tilesets, one per kind. */
export function tilesetsLinks(collection: string): Link[] {
  return (Object.keys(TILE_KINDS) as TileKind[]).map((kind) => ({
    href: `${collection}/${TILE_KINDS[kind].path}`,
    rel: TILE_KINDS[kind].rel,
    type: MEDIA_TYPES.json,
    title: `${TILE_KINDS[kind].what} of its features`,
  }));
}

function tilesetHref(base: string, name: string, kind: TileKind): string {
  return `${collectionHref(base, name)}/${TILE_KINDS[kind].path}/${WEB_MERCATOR_QUAD}`;
}

/** What a tileset says of itself wherever it is described: its kind, grid, CRS, and its links. */
function tilesetSummary(facts: CollectionFacts, base: string, kind: TileKind) {
  return {
    title: `${facts.name}: ${TILE_KINDS[kind].what.toLowerCase()} in ${WEB_MERCATOR_QUAD}`,
    dataType: kind,
    crs: WEB_MERCATOR_CRS,
    tileMatrixSetURI: WEB_MERCATOR_QUAD_URI,
    links: [
      { href: tilesetHref(base, facts.name, kind), rel: 'self', type: MEDIA_TYPES.json, title: 'The tileset' },
      { href: tileMatrixSetHref(base), rel: TILING_SCHEME_REL, type: MEDIA_TYPES.json, title: `The tile matrix set, ${WEB_MERCATOR_QUAD}` },
    ] satisfies Link[],
  };
}

/** /ogc/collections/{name}/tiles (or /map/tiles): the collection's tilesets of that kind. */
export function tilesetsDocument(facts: CollectionFacts, base: string, kind: TileKind) {
  return {
    links: [
      { href: `${collectionHref(base, facts.name)}/${TILE_KINDS[kind].path}`, rel: 'self', type: MEDIA_TYPES.json, title: 'This document' },
      { href: collectionHref(base, facts.name), rel: GEODATA_REL, type: MEDIA_TYPES.json, title: 'The collection' },
    ] satisfies Link[],
    tilesets: [tilesetSummary(facts, base, kind)],
  };
}

/**
 * A tileset's metadata: its summary, the templated link to its tiles (the one link a client
 * builds tile URLs from), where in each tile matrix the layer has tiles when its place is
 * known, and, for vector tiles, the layer each tile holds: named after the file, as
 * docs/tiles.md's vector tiles name it, each feature with its fid as id and no properties.
 */
export function tilesetDocument(facts: CollectionFacts, base: string, kind: TileKind) {
  const summary = tilesetSummary(facts, base, kind);
  const { mediaType, what } = TILE_KINDS[kind];
  return {
    ...summary,
    description: `${what} of shapefile ${facts.name}.shp, the same tiles as /REST/v1/shapefiles/tiles/${facts.name}/{z}/{x}/{y}.${TILE_KINDS[kind].format} without parameters.`,
    links: [
      ...summary.links,
      { href: collectionHref(base, facts.name), rel: GEODATA_REL, type: MEDIA_TYPES.json, title: 'The collection' },
      { href: `${tilesetHref(base, facts.name, kind)}/{tileMatrix}/{tileRow}/{tileCol}`, rel: 'item', type: mediaType, title: 'A tile', templated: true },
    ] satisfies Link[],
    ...(facts.lonLatBBox
      ? {
          boundingBox: { lowerLeft: [facts.lonLatBBox.xmin, facts.lonLatBBox.ymin], upperRight: [facts.lonLatBBox.xmax, facts.lonLatBBox.ymax], crs: CRS84 },
          tileMatrixSetLimits: tileMatrixSetLimits(facts.lonLatBBox),
        }
      : {}),
    ...(kind === 'vector'
      ? {
          layers: [
            {
              id: facts.name,
              dataType: 'vector',
              ...(facts.geometryTypes.length > 0 ? { geometryDimension: GEOMETRY_DIMENSIONS[facts.geometryTypes[0]] } : {}),
              minTileMatrix: String(MIN_TILE_ZOOM),
              maxTileMatrix: String(MAX_TILE_ZOOM),
              // A feature's id is its fid; it carries none of the .dbf fields (docs/ogc.md, "OGC API – Tiles").
              propertiesSchema: { type: 'object', properties: {} },
            },
          ],
        }
      : {}),
  };
}
