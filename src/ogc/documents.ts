/**
 * The JSON documents of /ogc that describe rather than carry features: landing page,
 * conformance, collections and their queryables (OGC API – Features Parts 1 and 3).
 */
import type { CollectionFacts } from '../ogc-jobs/feature-items.ts';
import type { BBox } from '../geometry/types.ts';
import type { AttributeType } from '../shapefile/dbf.ts';
import { collectionHref, CRS84, DRAFT_QUERYABLES_REL, MEDIA_TYPES, ogcBase, QUERYABLES_REL, requestHref, type Link } from './links.ts';
import { pagingLinks, type PagePosition } from './paging.ts';
import { tilesetsLinks } from './tiles.ts';

/** The link relation from the landing page to the tile matrix sets (OGC API – Tiles). */
const TILING_SCHEMES_REL = 'http://www.opengis.net/def/rel/ogc/1.0/tiling-schemes';

/**
 * The conformance classes /ogc meets: OGC API – Features, and OGC API – Tiles with the 2D Tile
 * Matrix Set standard's JSON (docs/ogc.md, "OGC API – Tiles"). OpenAPI 3.0's is not claimed,
 * since it also asks for an HTML service-doc.
 */
export const CONFORMANCE_CLASSES = [
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/features-filter',
  'http://www.opengis.net/spec/cql2/1.0/conf/cql2-text',
  'http://www.opengis.net/spec/cql2/1.0/conf/basic-cql2',
  'http://www.opengis.net/spec/cql2/1.0/conf/advanced-comparison-operators',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/tileset',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/tilesets-list',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/geodata-tilesets',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/mvt',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/png',
  'http://www.opengis.net/spec/tms/2.0/conf/tilematrixset',
  'http://www.opengis.net/spec/tms/2.0/conf/json-tilematrixset',
  'http://www.opengis.net/spec/tms/2.0/conf/tilesetmetadata',
  'http://www.opengis.net/spec/tms/2.0/conf/json-tilesetmetadata',
  'http://www.opengis.net/spec/tms/2.0/conf/tilematrixsetlimits',
  'http://www.opengis.net/spec/tms/2.0/conf/json-tilematrixsetlimits',
];

export function landingPage(base: string) {
  return {
    title: 'shapeshot',
    description:
      'The shapefiles of the data folder as OGC API – Features collections, in GeoJSON (WGS 84 longitude/latitude), and as vector and map tiles (OGC API – Tiles).',
    links: [
      { href: base, rel: 'self', type: MEDIA_TYPES.json, title: 'This document' },
      { href: `${base}/api`, rel: 'service-desc', type: MEDIA_TYPES.openapi, title: 'The API definition (OpenAPI 3.0)' },
      { href: `${base}/conformance`, rel: 'conformance', type: MEDIA_TYPES.json, title: 'The conformance classes this API meets' },
      { href: `${base}/collections`, rel: 'data', type: MEDIA_TYPES.json, title: 'The collections: one per shapefile' },
      { href: `${base}/tileMatrixSets`, rel: TILING_SCHEMES_REL, type: MEDIA_TYPES.json, title: 'The tile matrix sets the collections are tiled in' },
    ] satisfies Link[],
  };
}

export function conformance() {
  return { conformsTo: CONFORMANCE_CLASSES };
}

/** A page of the collections: those described, and where the page stands among all the key may see. */
export interface CollectionsPage extends PagePosition {
  collections: readonly CollectionFacts[];
}

/**
 * A page of the collections, linked to its neighbours as a page of items is, with its counts as
 * items carry them (`numberMatched`: all the key may see; as OGC API – Common Part 2's drafts
 * give them for collections). `linkUrl`: the request's URL as links name it.
 */
export function collectionsDocument(page: CollectionsPage, linkUrl: string) {
  const base = ogcBase(linkUrl);
  return {
    links: [
      { href: requestHref(linkUrl), rel: 'self', type: MEDIA_TYPES.json, title: 'This document' },
      ...pagingLinks(linkUrl, page, MEDIA_TYPES.json),
    ] satisfies Link[],
    numberMatched: page.numberMatched,
    numberReturned: page.collections.length,
    collections: page.collections.map((facts) => collectionDocument(facts, base)),
  };
}

/**
 * A collection as OGC API – Features describes one, plus `shapefile`: what the standard
 * has no member for (the file's own CRS and extent, shape type, feature count).
 */
export function collectionDocument(facts: CollectionFacts, base: string) {
  const href = collectionHref(base, facts.name);
  return {
    id: facts.name,
    title: facts.name,
    description: `The features of shapefile ${facts.name}.shp.`,
    links: [
      { href, rel: 'self', type: MEDIA_TYPES.json, title: 'This collection' },
      { href: `${href}/items`, rel: 'items', type: MEDIA_TYPES.geojson, title: 'Its features' },
      { href: `${href}/queryables`, rel: QUERYABLES_REL, type: MEDIA_TYPES.jsonSchema, title: 'Its fields, as queryables' },
      // For GDAL 3.6, which reads only this rel, and only a document served as application/json.
      { href: `${href}/queryables`, rel: DRAFT_QUERYABLES_REL, type: MEDIA_TYPES.json, title: 'Its fields, as queryables' },
      ...tilesetsLinks(href),
    ] satisfies Link[],
    ...(facts.lonLatBBox ? { extent: { spatial: { bbox: [corners(facts.lonLatBBox)], crs: CRS84 } } } : {}),
    itemType: 'feature',
    crs: [CRS84],
    shapefile: {
      shapeType: facts.shapeType,
      geometryTypes: facts.geometryTypes,
      featureCount: facts.featureCount,
      /** The `.prj`'s name of the file's CRS; null without a usable `.prj`. */
      crs: facts.crsName ?? null,
      /** The header's bounding box, in the file's own units. */
      bbox: corners(facts.bbox),
    },
  };
}

const JSON_SCHEMA_TYPES: Record<AttributeType, { type: string; format?: string }> = {
  string: { type: 'string' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date' },
};

/**
 * The `.dbf` fields, as Part 3's queryables (JSON Schema 2020-12): what `properties` names and
 * a filter compares. `queryables` lists them again as Part 3's drafts did ({ id, type }), the
 * form GDAL 3.6 reads before it sends a filter; JSON Schema ignores a keyword it does not know.
 */
export function queryablesDocument(facts: CollectionFacts, base: string) {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${collectionHref(base, facts.name)}/queryables`,
    type: 'object',
    title: facts.name,
    properties: Object.fromEntries(facts.fields.map((field) => [field.name, { title: field.name, ...JSON_SCHEMA_TYPES[field.type] }])),
    additionalProperties: false,
    queryables: facts.fields.map((field) => ({ id: field.name, type: JSON_SCHEMA_TYPES[field.type].type })),
  };
}

function corners(box: BBox): number[] {
  return [box.xmin, box.ymin, box.xmax, box.ymax];
}
