/**
 * The API definition of /ogc (OpenAPI 3.0, at /ogc/api): its operations, and their query
 * parameters generated from the zod schemas that validate them (parameters.ts), so that
 * what the definition declares and what a request may carry cannot drift apart.
 */
import { z } from 'zod';
import { reasonPhrase } from '../envelope/model.ts';
import { MEDIA_TYPES } from './links.ts';
import type { OgcQueries } from './parameters.ts';
import { WEB_MERCATOR_QUAD } from './tile-matrix-set.ts';
import { TILE_KINDS, type TileKind } from './tiles.ts';

/** OGC's published schemas of the documents /ogc answers with. */
const OGC_SCHEMAS = 'https://schemas.opengis.net/ogcapi/features/part1/1.0/openapi/schemas';

interface Operation {
  /** OpenAPI's path template, below /ogc. */
  path: string;
  summary: string;
  /** Whether it reads shapefiles, on the drawing workers (and so may answer 500 and 503). */
  reads?: true;
  mediaType: string;
  schema: Record<string, unknown>;
}

const ogcSchema = (name: string) => ({ $ref: `${OGC_SCHEMAS}/${name}.yaml` });

/** Every operation of /ogc, by the name of its query schema. */
export const OPERATIONS: Record<keyof OgcQueries, Operation> = {
  landing: { path: '/', summary: 'The landing page', mediaType: MEDIA_TYPES.json, schema: ogcSchema('landingPage') },
  api: { path: '/api', summary: 'This API definition', mediaType: MEDIA_TYPES.openapi, schema: { type: 'object' } },
  conformance: { path: '/conformance', summary: 'The conformance classes this API meets', mediaType: MEDIA_TYPES.json, schema: ogcSchema('confClasses') },
  collections: {
    path: '/collections',
    summary: 'The collections the key may see, one per shapefile of the data folder, a page at a time (limit, offset; the next link)',
    reads: true,
    mediaType: MEDIA_TYPES.json,
    schema: ogcSchema('collections'),
  },
  collection: { path: '/collections/{collectionId}', summary: 'A collection', reads: true, mediaType: MEDIA_TYPES.json, schema: ogcSchema('collection') },
  queryables: {
    path: '/collections/{collectionId}/queryables',
    summary: "A collection's fields, as a JSON Schema (OGC API – Features Part 3)",
    reads: true,
    mediaType: MEDIA_TYPES.jsonSchema,
    schema: { type: 'object' },
  },
  items: {
    path: '/collections/{collectionId}/items',
    summary: "A page of a collection's features, in WGS 84 longitude/latitude",
    reads: true,
    mediaType: MEDIA_TYPES.geojson,
    schema: ogcSchema('featureCollectionGeoJSON'),
  },
  item: {
    path: '/collections/{collectionId}/items/{featureId}',
    summary: 'A feature, in WGS 84 longitude/latitude',
    reads: true,
    mediaType: MEDIA_TYPES.geojson,
    schema: ogcSchema('featureGeoJSON'),
  },
  tileMatrixSets: { path: '/tileMatrixSets', summary: 'The tile matrix sets tiles are offered in: WebMercatorQuad', mediaType: MEDIA_TYPES.json, schema: { type: 'object' } },
  tileMatrixSet: {
    path: '/tileMatrixSets/{tileMatrixSetId}',
    summary: 'A tile matrix set, in the JSON of the 2D Tile Matrix Set standard (OGC 17-083r4)',
    mediaType: MEDIA_TYPES.json,
    schema: { type: 'object' },
  },
  ...tileOperations('vector'),
  ...tileOperations('map'),
};

/** The three resources of a collection's tiles of one kind (tiles.ts): its tilesets, a tileset, a tile. */
function tileOperations<Kind extends TileKind>(kind: Kind): Record<`${Kind}${'Tilesets' | 'Tileset' | 'Tile'}`, Operation> {
  const { path, mediaType, what } = TILE_KINDS[kind];
  const tiles = `/collections/{collectionId}/${path}`;
  const document = { reads: true, mediaType: MEDIA_TYPES.json, schema: { type: 'object' } } as const;
  const tilesets: Operation = { path: tiles, summary: `${what} of a collection: its tilesets`, ...document };
  const tileset: Operation = { path: `${tiles}/{tileMatrixSetId}`, summary: `${what} of a collection: a tileset's metadata`, ...document };
  const tile: Operation = {
    path: `${tiles}/{tileMatrixSetId}/{tileMatrix}/{tileRow}/{tileCol}`,
    summary: `${what} of a collection: a tile, the REST tile without parameters`,
    reads: true,
    mediaType,
    schema: { type: 'string', format: 'binary' },
  };
  return { [`${kind}Tilesets`]: tilesets, [`${kind}Tileset`]: tileset, [`${kind}Tile`]: tile } as Record<`${Kind}${'Tilesets' | 'Tileset' | 'Tile'}`, Operation>;
}

/**
 * An operation's path as Hono routes it: lower-cased as the app routes every path
 * (/ogc/tileMatrixSets arrives as /ogc/tilematrixsets), its parameters' names as they are.
 */
export function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}|[^{]+/g, (part, name?: string) => (name === undefined ? part.toLowerCase() : `:${name}`));
}

const PATH_PARAMETERS = {
  collectionId: {
    name: 'collectionId',
    in: 'path',
    required: true,
    description: 'The name of a shapefile of the data folder, without .shp, in any case.',
    schema: { type: 'string' },
  },
  featureId: {
    name: 'featureId',
    in: 'path',
    required: true,
    description: "A feature's id: its record's 0-based position in the .shp, as GDAL and QGIS number features.",
    schema: { type: 'integer', minimum: 0 },
  },
  tileMatrixSetId: { name: 'tileMatrixSetId', in: 'path', required: true, description: 'The tile matrix set: WebMercatorQuad.', schema: { type: 'string', enum: [WEB_MERCATOR_QUAD] } },
  tileMatrix: { name: 'tileMatrix', in: 'path', required: true, description: 'The tile matrix: the zoom level, 0 to 22.', schema: { type: 'string', pattern: '^\\d+$' } },
  tileRow: { name: 'tileRow', in: 'path', required: true, description: 'The row, 0 at the top, to 2^tileMatrix - 1.', schema: { type: 'integer', minimum: 0 } },
  tileCol: { name: 'tileCol', in: 'path', required: true, description: 'The column, 0 at 180°W, to 2^tileMatrix - 1.', schema: { type: 'integer', minimum: 0 } },
};

const API_KEY_HEADER = {
  name: 'X-API-Key',
  in: 'header',
  required: false,
  description: 'The access key; or send it as the `key` parameter. One of the two is required.',
  schema: { type: 'string' },
};

/** The API definition, made once; a request's copy names the URL of /ogc it came to as the server. */
export function apiDefinition(queries: OgcQueries): (base: string) => Record<string, unknown> {
  const paths = Object.fromEntries(
    Object.entries(OPERATIONS).map(([name, operation]) => [operation.path, { get: operationObject(name, operation, queries[name as keyof OgcQueries]) }]),
  );
  return (base) => ({
    openapi: '3.0.3',
    info: {
      title: 'shapeshot: OGC API – Features and Tiles',
      version: '1.0.0',
      description:
        'The shapefiles of the data folder as collections, their features in GeoJSON (WGS 84 longitude/latitude), ' +
        'and their vector and map tiles in WebMercatorQuad. ' +
        'Errors are OGC exceptions, `{ "code", "description" }`, with the HTTP status; a query parameter not declared here is a 400.',
    },
    servers: [{ url: base }],
    security: [{ apiKeyHeader: [] }, { apiKeyQuery: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'key' },
      },
      schemas: { exception: ogcSchema('exception') },
    },
  });
}

function operationObject(name: string, operation: Operation, query: z.ZodObject) {
  // The path's own parameters, read from its template; a path that names something may name what is not there (404).
  const pathParameters = [...operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => PATH_PARAMETERS[name as keyof typeof PATH_PARAMETERS]);
  const failures = [400, 401, ...(pathParameters.length > 0 ? [404] : []), 405, 414, 431, 500, ...(operation.reads ? [503] : [])];
  return {
    operationId: name,
    summary: operation.summary,
    parameters: [...pathParameters, ...Object.entries(query.shape).map(([parameter, schema]) => queryParameter(parameter, schema)), API_KEY_HEADER],
    responses: {
      200: {
        description: 'OK',
        content: { [operation.mediaType]: { schema: operation.schema }, ...(offersHtml(query) ? { [MEDIA_TYPES.html]: { schema: { type: 'string' } } } : {}) },
      },
      ...Object.fromEntries(
        failures.map((status) => [
          status,
          { description: reasonPhrase(status), content: { [MEDIA_TYPES.json]: { schema: { $ref: '#/components/schemas/exception' } } } },
        ]),
      ),
    },
  };
}

/** Whether the resource has an HTML page: read from what its `f` accepts, so that the two cannot disagree. */
function offersHtml(query: z.ZodObject): boolean {
  const f = query.shape.f as z.ZodType | undefined;
  return f !== undefined && f.safeParse('html').success;
}

/** A query parameter from its zod schema: required unless it may be left out; its default is what it reads as when left out. */
function queryParameter(name: string, schema: z.ZodType) {
  const { description, ...jsonSchema } = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'throw' });
  const absent = schema.safeParse(undefined);
  if (absent.success && absent.data !== undefined) jsonSchema.default = absent.data;
  return {
    name,
    in: 'query',
    required: !absent.success,
    ...(description ? { description } : {}),
    schema: jsonSchema,
    // OGC API's lists are comma-separated: bbox=1,2,3,4.
    ...(jsonSchema.type === 'array' ? { style: 'form', explode: false } : {}),
  };
}
