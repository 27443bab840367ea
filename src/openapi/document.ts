/**
 * The OpenAPI 3.1 description of the service, built from the zod schemas that validate each
 * route's query (with the configured limits and themes), so it cannot drift from what the
 * routes accept.
 */
import { Registry } from 'prom-client';
import { z } from 'zod';
import { packageVersion } from '../config/package-folders.ts';
import type { Config } from '../config/schema.ts';
import { choiceParam, IMAGE_CONTENT_TYPES, IMAGE_FORMATS, MAP_FORMATS, type Format } from '../params/fields.ts';
import { tileQuerySchema } from '../params/tiles.ts';
import { CULTURES, MAP_TYPES } from '../plugin-contract/basemap-plugin.ts';
import { imagesQuerySchema } from '../params/images.ts';
import { mapQuerySchema } from '../params/map.ts';
import { usageQuerySchema } from '../params/usage.ts';
import { LEGEND_FORMATS, legendQuerySchema } from '../params/legend.ts';
import { colouringFields, thematicFields } from '../params/thematic.ts';
import { styleFields } from '../params/style.ts';
import { spelledParameter } from '../params/spelling.ts';
import type { Theme } from '../params/theme.ts';
import { apiDefinition } from '../ogc/openapi.ts';
import { ogcQueries } from '../ogc/parameters.ts';
import { envelopeSchema, featureImageSchema, hotSpotSchema, legendSchema } from './envelope-schema.ts';
import { queryParameters } from './parameters.ts';

const ENVELOPE = { $ref: '#/components/schemas/Response' };
const envelopeContent = {
  'application/json': { schema: ENVELOPE },
  'application/xml': { schema: ENVELOPE },
};
const ERRORS: Record<string, string> = {
  400: 'A parameter is missing, malformed or out of range, or the request is past a limit (each named).',
  401: "The key is missing or unknown ('key' parameter or X-API-Key header).",
  403: "A valid key used against its own rules: a signature missing or not matching (requireSignature), or a Referer/Origin its referrers rule does not allow.",
  404: 'No such shapefile, feature or child; or no feature matches `where`.',
  414: 'The URL is longer than 16 KiB.',
  429: "The key's quota for the day or the month (UTC) is used up; the message says when it resets, Retry-After in how many seconds.",
  431: 'The request headers pass 16 KiB.',
  500: 'A damaged shapefile (file and record named) or an unexpected fault.',
  503: 'Overloaded, rate-limited or out of time; see Retry-After.',
};

const CACHING_HEADERS = {
  ETag: { description: 'Strong for picture formats, weak (W/) for envelopes; equal on every instance.', schema: { type: 'string' } },
  'Last-Modified': { description: "The shapefile's newest file.", schema: { type: 'string' } },
  'Cache-Control': { description: "Configured (http.cacheControl); 'no-store' with noCache=1.", schema: { type: 'string' } },
};

export interface DocumentSources {
  limits: Config['limits'];
  ogc: Config['ogc'];
  /** Whether /metrics is served (config `metrics`). */
  metrics: boolean;
  /** Whether the data is read from a remote source (some of /ogc's defaults differ). */
  remote: boolean;
  themes: ReadonlyMap<string, Theme>;
}

export function openApiDocument({ limits, ogc, metrics, remote, themes }: DocumentSources): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'shapeshot',
      version: packageVersion(),
      description:
        'Renders features of ESRI shapefiles as PNG images and as static maps over a basemap (the ShapeServer ' +
        'REST interface). Every route but the public ones (health, metrics, this description, the docs) needs a key.',
    },
    servers: [{ url: '/' }],
    security: [{ keyParameter: [] }, { keyHeader: [] }],
    paths: {
      '/REST/v1/shapefiles/images': {
        get: imageOperation(
          'images',
          'Images of features',
          'One PNG image per listed feature (or one of them all with singleImage=1), each fitted to its features.',
          "The first image's",
          IMAGE_FORMATS,
          imagesQuerySchema(limits, themes),
          z.object(styleFields),
          z.object(thematicFields),
        ),
      },
      '/REST/v1/shapefiles/map': {
        get: imageOperation(
          'map',
          'A map of features over a basemap',
          'The features (all of them without fid or where) drawn over a Web Mercator basemap at a whole zoom level.',
          "The map's",
          MAP_FORMATS,
          mapQuerySchema(limits),
          z.object(thematicFields),
        ),
      },
      '/REST/v1/shapefiles/legend': {
        get: imageOperation(
          'legend',
          'The legend of a styled picture',
          "A styleBy request's classes (or a theme's rules) alone, as WMS GetLegendGraphic answers: drawn as PNG or SVG, or in the envelope.",
          "The legend's",
          LEGEND_FORMATS,
          legendQuerySchema(themes),
          z.object(colouringFields),
        ),
      },
      '/REST/v1/usage': { get: usageOperation() },
      ...tilePaths(themes),
      ...ogcPaths(ogc, remote),
      ...PUBLIC_PATHS,
      ...(metrics ? { '/metrics': publicOperation('Prometheus metrics', Registry.PROMETHEUS_CONTENT_TYPE) } : {}),
    },
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        keyParameter: { type: 'apiKey', in: 'query', name: 'key' },
        keyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
    },
  };
}

/** An image route's operation; `picture` names whose bytes a picture format answers ("the map's"). */
function imageOperation(operationId: string, summary: string, description: string, picture: string, formats: readonly Format[], ...queries: z.ZodType[]) {
  const parameters = operationParameters(queries);
  const pictures = formats.flatMap((format) => {
    const type = IMAGE_CONTENT_TYPES[format];
    return type ? [[type, { schema: { type: 'string', contentMediaType: type } }] as const] : [];
  });
  const responses: Record<string, unknown> = {
    200: {
      description: `${picture} bytes with format=${formats.filter((format) => IMAGE_CONTENT_TYPES[format]).join(' or ')}, else the envelope.`,
      headers: CACHING_HEADERS,
      content: { ...Object.fromEntries(pictures), ...envelopeContent },
    },
    304: { description: "If-None-Match named the ETag this answer would have: nothing was drawn ('*' is not taken).", headers: CACHING_HEADERS },
  };
  return { operationId, summary, description, parameters, responses: { ...responses, ...errorResponses(ERRORS) } };
}

/** The queries' parameters as the interface spells them; the key is a security scheme, not a parameter. */
function operationParameters(queries: readonly z.ZodType[]) {
  return queries.flatMap((query) => queryParameters(query, (name) => spelledParameter(name) ?? name)).filter((parameter) => parameter.name !== 'key');
}

/** The envelope's errors, each with its description. */
function errorResponses(errors: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(errors).map(([status, text]) => [status, { description: text, content: envelopeContent }]));
}

/**
 * /ogc's operations, as its own API definition (/ogc/api) describes them; the documents it
 * answers with are OGC's, linked rather than referenced (a client generator would have to
 * fetch them).
 */
function ogcPaths(limits: Config['ogc'], remote: boolean): Record<string, unknown> {
  const { paths } = apiDefinition(ogcQueries(limits, { remote }))('/ogc') as { paths: Record<string, unknown> };
  return Object.fromEntries(Object.entries(paths).map(([path, item]) => [`/ogc${path === '/' ? '' : path}`, linkingOgcSchemas(item)]));
}

function linkingOgcSchemas(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(linkingOgcSchemas);
  if (typeof value !== 'object' || value === null) return value;
  const { $ref } = value as { $ref?: unknown };
  if (typeof $ref === 'string' && $ref === '#/components/schemas/exception') return { $ref: '#/components/schemas/OgcException' };
  if (typeof $ref === 'string' && /^https?:/.test($ref)) return { type: 'object', externalDocs: { description: "OGC's schema", url: $ref } };
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, linkingOgcSchemas(inner)]));
}

const pathParameter = (name: string, description: string, schema: Record<string, unknown>) => ({ name, in: 'path', required: true, description, schema });
const TILE_ADDRESS = [
  pathParameter('z', 'Zoom, 0–22.', { type: 'integer', minimum: 0, maximum: 22 }),
  pathParameter('x', 'Column, 0 to 2^z − 1, from the antimeridian eastwards.', { type: 'integer', minimum: 0 }),
  pathParameter('y', 'Row, 0 to 2^z − 1, from 85.0511°N southwards.', { type: 'integer', minimum: 0 }),
];
const FILE = pathParameter('file', 'The shapefile, as the images operation names it.', { type: 'string' });

/** The tiles (docs/tiles.md): a layer's raster and vector tiles, its TileJSON and style, the basemap as tiles. */
function tilePaths(themes: ReadonlyMap<string, Theme>): Record<string, unknown> {
  const query = operationParameters([tileQuerySchema(themes), z.object(styleFields), z.object(thematicFields)]);
  const answer = (operationId: string, summary: string, type: string, parameters: unknown[], description: string) => ({
    get: {
      operationId,
      summary,
      parameters,
      responses: {
        200: { description, headers: CACHING_HEADERS, content: { [type]: { schema: { type: type.startsWith('application/json') ? 'object' : 'string' } } } },
        304: { description: 'If-None-Match named the ETag this answer would have: nothing was read.', headers: CACHING_HEADERS },
        ...errorResponses(ERRORS),
      },
    },
  });
  const tiles = '/REST/v1/shapefiles/tiles/{file}';
  return {
    [`${tiles}/{z}/{x}/{y}.png`]: answer('rasterTile', 'A raster tile of a layer', 'image/png', [FILE, ...TILE_ADDRESS, ...query], 'A 256-px PNG ({y}@2x.png: 512 px), drawn as the images operation draws.'),
    [`${tiles}/{z}/{x}/{y}.mvt`]: answer('vectorTile', 'A vector tile of a layer', 'application/vnd.mapbox-vector-tile', [FILE, ...TILE_ADDRESS, ...query], 'A Mapbox Vector Tile 2.1 (extent 4096), ids the fids, the fields named by fields=.'),
    [`${tiles}.json`]: answer('tileJson', "A layer's TileJSON", 'application/json', [FILE, ...query], 'TileJSON 3.0.0 of the .mvt tiles (tiles=png: of the PNG tiles) with these parameters.'),
    [`${tiles}/style.json`]: answer('tileStyle', "A layer's MapLibre style", 'application/json', [FILE, ...query], 'A MapLibre style (version 8) drawing the vector tiles over the basemap in the colours of the raster tiles.'),
    '/REST/v1/basemap/{type}/{z}/{x}/{y}.png': answer(
      'basemapTile',
      'The basemap as tiles',
      'image/png',
      [pathParameter('type', 'The map type.', { type: 'string', enum: [...MAP_TYPES] }), ...TILE_ADDRESS, ...operationParameters([z.object({ culture: choiceParam(CULTURES).optional() })])],
      'The configured basemap drawn for one tile.',
    ),
  };
}

/** The usage route: the key's own counts and limits; refused as any route is for its key, but never for its quota. */
function usageOperation() {
  // Never past the quota; nor a shapefile to find.
  const { 429: _quota, 404: _notFound, ...errors } = ERRORS;
  const responses = {
    200: { description: "The key's requests today and this month (UTC) with its quotas and when they reset, its rate limit and maxConcurrent; asking costs no quota.", content: envelopeContent },
    ...errorResponses(errors),
  };
  return {
    operationId: 'usage',
    summary: "The key's usage and limits",
    parameters: operationParameters([usageQuerySchema]),
    responses,
  };
}

const publicOperation = (summary: string, type: string, description?: string) => ({
  get: {
    summary,
    ...(description ? { description } : {}),
    security: [],
    responses: { 200: { description: 'OK', content: { [type]: {} } } },
  },
});

/** How /ogc answers errors (docs/decisions.md): OGC's exception, with the HTTP status. */
const OGC_EXCEPTION = {
  type: 'object',
  required: ['code'],
  properties: { code: { type: 'string' }, description: { type: 'string' } },
};

/** Routes that need no key (docs/decisions.md). */
const PUBLIC_PATHS = {
  '/': publicOperation('The playground: try the operations in a browser', 'text/html'),
  '/docs': publicOperation('An interactive reference of this description', 'text/html'),
  '/openapi.json': publicOperation('This description', 'application/vnd.oai.openapi+json;version=3.1'),
  '/health': publicOperation('Whether the process is alive', 'application/json'),
  '/ready': {
    get: {
      ...publicOperation('Whether the service can answer', 'application/json').get,
      responses: {
        200: { description: 'Data folder readable, drawing workers up; failing basemaps are named.', content: { 'application/json': {} } },
        503: { description: 'Not ready; the body names what is not.', content: { 'application/json': {} } },
      },
    },
  },
};

/** The envelope and the schemas it names, with references as OpenAPI resolves them. */
function componentSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  registry.add(envelopeSchema, { id: 'Response' });
  registry.add(featureImageSchema, { id: 'ShapefileFeatureImage' });
  registry.add(hotSpotSchema, { id: 'HotSpot' });
  registry.add(legendSchema, { id: 'Legend' });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` });
  return { ...Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, withoutDialect(schema)])), OgcException: OGC_EXCEPTION };
}

function withoutDialect({ $schema: _dialect, ...schema }: Record<string, unknown>): Record<string, unknown> {
  return schema;
}
