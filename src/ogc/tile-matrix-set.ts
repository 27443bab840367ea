/**
 * The one tile matrix set /ogc tiles in, WebMercatorQuad (docs/ogc.md, "OGC API – Tiles"):
 * its definition in the JSON encoding of the 2D Tile Matrix Set standard (OGC 17-083r4),
 * worked out from the same Web Mercator constants the tiles are drawn by, so that the grid
 * clients read and the grid we draw cannot drift apart; and the reading of a tile's address
 * in that grid. Pure.
 */
import { NotFoundError } from '../errors.ts';
import type { BBox } from '../geometry/types.ts';
import { MAX_TILE_ZOOM, MIN_TILE_ZOOM, tileRange, tileSpan, type TileAddress } from '../projection/tile-address.ts';
import { HALF_WORLD, mercatorX, mercatorY, pixelsPerMetre, TILE_SIZE } from '../projection/web-mercator.ts';
import { widened } from '../geometry/bbox.ts';
import { DEFAULT_STYLE } from '../params/style.ts';
import { MEDIA_TYPES, type Link } from './links.ts';

export const WEB_MERCATOR_QUAD = 'WebMercatorQuad';
export const WEB_MERCATOR_QUAD_URI = 'http://www.opengis.net/def/tilematrixset/OGC/1.0/WebMercatorQuad';
export const WEB_MERCATOR_CRS = 'http://www.opengis.net/def/crs/EPSG/0/3857';
/** The link relation from a tileset to its tile matrix set (OGC API – Tiles). */
export const TILING_SCHEME_REL = 'http://www.opengis.net/def/rel/ogc/1.0/tiling-scheme';

/** The size of a "standardized rendering pixel" (OGC 17-083r4): what a scale denominator is reckoned in. */
const RENDERING_PIXEL_METRES = 0.00028;

/** What a default style draws beyond a feature, in pixels: its 2-px stroke, 5-px point symbol and 2 px of anti-aliasing. */
const DEFAULT_REACH_PIXELS = DEFAULT_STYLE.lineWidth + DEFAULT_STYLE.pointSize + 2;

const TILE_MATRIX_IDS = Array.from({ length: MAX_TILE_ZOOM - MIN_TILE_ZOOM + 1 }, (_, i) => String(MIN_TILE_ZOOM + i));

export function tileMatrixSetHref(base: string): string {
  return `${base}/tileMatrixSets/${WEB_MERCATOR_QUAD}`;
}

/** /ogc/tileMatrixSets: the sets tiles are offered in, each linked to its definition. */
export function tileMatrixSetsDocument(base: string) {
  return {
    links: [{ href: `${base}/tileMatrixSets`, rel: 'self', type: MEDIA_TYPES.json, title: 'This document' }] satisfies Link[],
    tileMatrixSets: [
      {
        id: WEB_MERCATOR_QUAD,
        title: 'Google Maps Compatible for the World',
        uri: WEB_MERCATOR_QUAD_URI,
        crs: WEB_MERCATOR_CRS,
        links: [{ href: tileMatrixSetHref(base), rel: 'self', type: MEDIA_TYPES.json, title: 'The tile matrix set' }] satisfies Link[],
      },
    ],
  };
}

/** The matrices of zooms 0 to 22, as tileMatrixSetDocument() gives them. */
const TILE_MATRICES = TILE_MATRIX_IDS.map((id) => {
  const zoom = Number(id);
  const cellSize = tileSpan(zoom) / TILE_SIZE;
  return {
    id,
    scaleDenominator: cellSize / RENDERING_PIXEL_METRES,
    cellSize,
    cornerOfOrigin: 'topLeft',
    pointOfOrigin: [-HALF_WORLD, HALF_WORLD],
    topLeftCorner: [-HALF_WORLD, HALF_WORLD],
    tileWidth: TILE_SIZE,
    tileHeight: TILE_SIZE,
    matrixWidth: 2 ** zoom,
    matrixHeight: 2 ** zoom,
  };
});

/**
 * WebMercatorQuad as 17-083r4's JSON gives it: one tile matrix per zoom 0–22, each twice the
 * last's columns and rows, its cell `2·HALF_WORLD / 256 / 2^z` metres, its scale denominator
 * the cell over a 0.28 mm rendering pixel, its origin the world's top-left corner.
 * `type`, `supportedCRS` and each matrix's `topLeftCorner` are the members of the standard's
 * first JSON (17-083r2) that GDAL 3.6's OGCAPI driver reads: it takes a definition without
 * `type` for a file name, and finds no CRS nor origin without the other two. They repeat what
 * `crs` and `pointOfOrigin` say; 17-083r4 readers ignore them.
 */
export function tileMatrixSetDocument(base: string) {
  return {
    type: 'TileMatrixSetType',
    id: WEB_MERCATOR_QUAD,
    title: 'Google Maps Compatible for the World',
    uri: WEB_MERCATOR_QUAD_URI,
    crs: WEB_MERCATOR_CRS,
    supportedCRS: WEB_MERCATOR_CRS,
    orderedAxes: ['X', 'Y'],
    wellKnownScaleSet: 'http://www.opengis.net/def/wkss/OGC/1.0/GoogleMapsCompatible',
    boundingBox: { lowerLeft: [-HALF_WORLD, -HALF_WORLD], upperRight: [HALF_WORLD, HALF_WORLD], crs: WEB_MERCATOR_CRS },
    tileMatrices: TILE_MATRICES,
    links: [{ href: tileMatrixSetHref(base), rel: 'self', type: MEDIA_TYPES.json, title: 'This tile matrix set' }] satisfies Link[],
  };
}

/**
 * The tiles of each tile matrix that a box in WGS 84 touches (17-083r4's tileMatrixSetLimits),
 * widened by what a tile draws beyond its edge (a default stroke and point symbol, more than a
 * vector tile's buffer: docs/tiles.md, "Raster tiles"): the tiles outside them hold nothing of the layer.
 */
export function tileMatrixSetLimits(lonLatBBox: BBox) {
  const box = { xmin: mercatorX(lonLatBBox.xmin), ymin: mercatorY(lonLatBBox.ymin), xmax: mercatorX(lonLatBBox.xmax), ymax: mercatorY(lonLatBBox.ymax) };
  return TILE_MATRIX_IDS.map((tileMatrix) => {
    const zoom = Number(tileMatrix);
    const range = tileRange(widened(box, DEFAULT_REACH_PIXELS / pixelsPerMetre(zoom)), zoom);
    return { tileMatrix, minTileRow: range.minY, maxTileRow: range.maxY, minTileCol: range.minX, maxTileCol: range.maxX };
  });
}

/** Whether a path's tile matrix set is ours; ids are matched in any case, as every name under /ogc. */
export function isWebMercatorQuad(id: string): boolean {
  return id.toLowerCase() === WEB_MERCATOR_QUAD.toLowerCase();
}

/** The 404 for a tile matrix set other than WebMercatorQuad; the path is not echoed (a key pasted into it must not come back). */
export function unknownTileMatrixSet(): NotFoundError {
  return new NotFoundError(`There is no tile matrix set of that id: tiles are offered in ${WEB_MERCATOR_QUAD} only (GET /ogc/tileMatrixSets).`);
}

/**
 * The tile a path names in WebMercatorQuad; 404 for any address that names no tile of the
 * set: a tile matrix other than 0–22, a row or column outside its matrix (OGC API – Tiles
 * answers a tile that does not exist with 404; docs/ogc.md, "OGC API – Tiles").
 */
export function webMercatorTile(tileMatrix: string, tileRow: string, tileCol: string): TileAddress {
  if (!TILE_MATRIX_IDS.includes(tileMatrix)) {
    throw new NotFoundError(`There is no such tile matrix in ${WEB_MERCATOR_QUAD}: its tile matrices are ${MIN_TILE_ZOOM} to ${MAX_TILE_ZOOM}.`);
  }
  const zoom = Number(tileMatrix);
  const last = 2 ** zoom - 1;
  const [row, column] = [tileRow, tileCol].map((text) => (/^\d{1,8}$/.test(text) ? Number(text) : Number.NaN));
  if (!(row <= last && column <= last)) {
    throw new NotFoundError(`There is no such tile: tile matrix ${zoom} of ${WEB_MERCATOR_QUAD} has rows and columns 0 to ${last}.`);
  }
  return { z: zoom, x: column, y: row };
}
