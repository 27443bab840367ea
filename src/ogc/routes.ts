/**
 * GET /ogc…: OGC API – Features and Tiles over the data folder. What reads shapefiles is admitted
 * like every other operation and runs on the drawing workers with the request's signal;
 * this thread checks parameters and writes the documents around the workers' GeoJSON.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { setCacheControl } from '../caching/cache-control.ts';
import type { CollectionFacts, DescribedCollection } from '../ogc-jobs/feature-items.ts';
import { featureLimits } from '../ogc-jobs/feature-limits.ts';
import { NotFoundError, ServiceError } from '../errors.ts';
import { reserveAnswer } from '../http/admission.ts';
import type { AppEnv } from '../http/context.ts';
import { visibleShapefile, visibleShapefilesPage } from '../http/shapefile-access.ts';
import type { Services } from '../app-services.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';
import { addStages } from '../stages.ts';
import { cachedPicture } from '../caching/picture-caching.ts';
import { dataAttribution } from '../envelope/copyright.ts';
import { classificationCache } from '../operations/thematic.ts';
import { createTile } from '../operations/tiles.ts';
import { tileQuerySchema, type TileFormat, type TileQuery } from '../params/tiles.ts';
import type { TileAddress } from '../projection/tile-address.ts';
import { collectionDocument, collectionsDocument, conformance, landingPage, queryablesDocument } from './documents.ts';
import { isWebMercatorQuad, tileMatrixSetDocument, tileMatrixSetsDocument, unknownTileMatrixSet, webMercatorTile } from './tile-matrix-set.ts';
import { TILE_KINDS, tilesetDocument, tilesetsDocument, type TileKind } from './tiles.ts';
import { onlyGetOrHead } from './errors.ts';
import { featureBytes, featureCollectionBytes } from './feature-documents.ts';
import { collectionHref, MEDIA_TYPES, ogcBase, publicRequestUrl, requestHref, type Link } from './links.ts';
import { apiDefinition, honoPath, OPERATIONS } from './openapi.ts';
import { queryablesMediaType } from './negotiation.ts';
import { inBatches } from './batches.ts';
import { pagingLinks } from './paging.ts';
import { ogcQueries, readQuery } from './parameters.ts';
import { linkingFor, PAGE_HEADERS, wantsHtml } from './html/answer.ts';
import { collectionHtml, collectionsHtml, landingHtml } from './html/catalog-pages.ts';
import { itemHtml, itemsHtml, type ShownFeature } from './html/feature-pages.ts';

/** `admitted`: what every request that reads shapefiles passes first (admission, the request's signal). */
/** The most bytes of features (as the workers write them, without coordinates) one HTML page may show. */
const HTML_FEATURES_BYTES = 2 * 1024 * 1024;
/** Collections one job describes: a page of 1,000 is ten jobs over the workers (batches.ts). */
const COLLECTIONS_PER_JOB = 100;
export function ogcRoutes(services: Services, admitted: MiddlewareHandler<AppEnv>): Hono<AppEnv> {
  const { catalog, jobs, config, logger } = services;
  const queries = ogcQueries(config.ogc, { remote: services.source !== undefined });
  const definition = apiDefinition(queries);
  const limits = featureLimits(config);
  // A page for people is parsed and written on the event loop: its features' text is held to a page's worth, not an answer's.
  const pageLimits = { ...limits, maxAnswerBytes: Math.min(limits.maxAnswerBytes, HTML_FEATURES_BYTES) };
  const ogc = new Hono<AppEnv>();
  const route = (operation: keyof typeof OPERATIONS) => honoPath(OPERATIONS[operation].path);
  /** The request's URL as links must name it (ogc.publicUrl behind a proxy). */
  const linkUrl = (c: Context<AppEnv>) => publicRequestUrl(c.req.url, config.ogc.publicUrl);

  const describe = async (c: Context<AppEnv>, files: ShapefileFiles[]): Promise<DescribedCollection[]> => {
    const stages: Record<string, number> = {};
    const collections = await inBatches(files, COLLECTIONS_PER_JOB, jobs.workers, async (batch) => {
      const described = await jobs.run('collections', { files: batch }, c.get('signal'));
      addStages(stages, described.stages);
      return described.collections;
    });
    c.get('timing')?.job(stages);
    return collections;
  };
  /**
   * The access step of the routes of one collection, called first once the query is read (its
   * 400s come before the 404): one the key may not see is as missing as one that does not exist.
   */
  const collectionFiles = async (c: Context<AppEnv>): Promise<ShapefileFiles> => {
    const files = await visibleShapefile(catalog, pathSegment(c, 3), c.get('grant'));
    // The collection's name comes from the path, where a key pasted by mistake would be: not echoed.
    if (!files) throw new NotFoundError('There is no collection of that name; GET /ogc/collections lists them.');
    return files;
  };
  const describeOne = async (c: Context<AppEnv>): Promise<CollectionFacts> => {
    const [described] = await describe(c, [await collectionFiles(c)]);
    if ('problem' in described) throw new ServiceError(described.status, described.problem);
    return described.facts;
  };

  ogc.use('*', onlyGetOrHead());
  // Cached as images and maps are: /ogc clients send the key in X-API-Key, so shared caches
  // must tell keys apart (Vary). Errors take no-store (errors.ts).
  ogc.use('*', async (c, next) => {
    setCacheControl(c, config.http.cacheControl);
    // Without f, Accept picks JSON or a page (and the queryables' label): caches must tell them apart.
    c.header('Vary', 'Accept', { append: true });
    await next();
  });

  ogc.get(route('landing'), (c) => {
    const query = queryOf(c, queries.landing);
    if (wantsHtml(c, query.f)) return sendHtml(c, landingHtml(linkingFor(c, linkUrl(c)), linkUrl(c)));
    return sendJson(c, landingPage(ogcBase(linkUrl(c))));
  });

  ogc.get(route('conformance'), (c) => {
    queryOf(c, queries.conformance);
    return sendJson(c, conformance());
  });

  ogc.get(route('api'), (c) => {
    queryOf(c, queries.api);
    return sendJson(c, definition(ogcBase(linkUrl(c))), MEDIA_TYPES.openapi);
  });

  ogc.get(route('collections'), admitted, async (c) => {
    const query = queryOf(c, queries.collections);
    const { offset, limit } = query;
    // Only the page's shapefiles are looked up and described: its cost is bounded by limit, not by the catalog.
    const page = await visibleShapefilesPage(catalog, c.get('grant'), { offset, limit }, c.get('signal'));
    // A file the source refuses is left out, as a damaged one is; /ready names it too (docs/ogc.md, "Collections").
    for (const problem of page.refused) logger.warn({ traceId: c.get('traceId'), problem }, 'collection left out');
    const described = await describe(c, page.files);
    const collections = described.flatMap((entry) => {
      if ('facts' in entry) return [entry.facts];
      // A file removed meanwhile is simply gone; a damaged one is left out, and said so in the log.
      if (entry.status !== 404) logger.warn({ traceId: c.get('traceId'), problem: entry.problem }, 'collection left out');
      return [];
    });
    const shown = { collections, offset, limit, numberMatched: page.numberMatched };
    if (wantsHtml(c, query.f)) return sendHtml(c, collectionsHtml(linkingFor(c, linkUrl(c)), linkUrl(c), shown));
    return sendJson(c, collectionsDocument(shown, linkUrl(c)));
  });

  ogc.get(route('collection'), admitted, async (c) => {
    const query = queryOf(c, queries.collection);
    const facts = await describeOne(c);
    if (wantsHtml(c, query.f)) return sendHtml(c, collectionHtml(linkingFor(c, linkUrl(c)), linkUrl(c), facts));
    return sendJson(c, collectionDocument(facts, ogcBase(linkUrl(c))));
  });

  ogc.get(route('queryables'), admitted, async (c) => {
    queryOf(c, queries.queryables);
    return sendJson(c, queryablesDocument(await describeOne(c), ogcBase(linkUrl(c))), queryablesMediaType(c.req.header('accept')));
  });

  ogc.get(route('items'), admitted, async (c) => {
    c.get('timing')?.lap('http');
    const query = queryOf(c, queries.items);
    const files = await collectionFiles(c);
    const asHtml = wantsHtml(c, query.f);
    const page = await jobs.run(
      'items',
      {
        files,
        query: { bbox: query.bbox, filter: query.filter },
        offset: query.offset,
        limit: query.limit,
        properties: query.properties,
        geometry: asHtml ? 'type' : 'whole',
        limits: asHtml ? pageLimits : limits,
      },
      c.get('signal'),
    );
    c.get('timing')?.job(page.stages);
    const { offset, limit } = query;
    if (asHtml) {
      const shown = { collection: files.name, features: parsed<ShownFeature[]>(page.features), numberMatched: page.numberMatched, offset, limit, filter: query.filter };
      return sendHtml(c, itemsHtml(linkingFor(c, linkUrl(c)), linkUrl(c), shown));
    }
    const links: Link[] = [
      { href: requestHref(linkUrl(c)), rel: 'self', type: MEDIA_TYPES.geojson, title: 'This page' },
      { href: collectionHref(ogcBase(linkUrl(c)), files.name), rel: 'collection', type: MEDIA_TYPES.json, title: 'The collection' },
      ...pagingLinks(linkUrl(c), { offset, limit, numberMatched: page.numberMatched }, MEDIA_TYPES.geojson),
    ];
    return sendBytes(c, featureCollectionBytes(page, links), MEDIA_TYPES.geojson);
  });

  ogc.get(route('item'), admitted, async (c) => {
    c.get('timing')?.lap('http');
    const query = queryOf(c, queries.item);
    const files = await collectionFiles(c);
    const id = pathSegment(c, 5);
    if (!/^\d{1,15}$/.test(id)) {
      throw new NotFoundError(`Collection '${files.name}' has no feature of that id: feature ids are record numbers 0, 1, 2, …`);
    }
    const asHtml = wantsHtml(c, query.f);
    const job = asHtml
      ? { files, fid: Number(id), properties: query.properties, geometry: 'type' as const, limits: pageLimits }
      : { files, fid: Number(id), properties: query.properties, geometry: 'whole' as const, limits };
    const { feature, stages } = await jobs.run('item', job, c.get('signal'));
    c.get('timing')?.job(stages);
    if (asHtml) return sendHtml(c, itemHtml(linkingFor(c, linkUrl(c)), linkUrl(c), files.name, parsed<ShownFeature>(feature)));
    const links: Link[] = [
      { href: requestHref(linkUrl(c)), rel: 'self', type: MEDIA_TYPES.geojson, title: 'This feature' },
      { href: collectionHref(ogcBase(linkUrl(c)), files.name), rel: 'collection', type: MEDIA_TYPES.json, title: 'The collection' },
    ];
    return sendBytes(c, featureBytes(feature, links), MEDIA_TYPES.geojson);
  });

  ogc.get(route('tileMatrixSets'), (c) => {
    queryOf(c, queries.tileMatrixSets);
    return sendJson(c, tileMatrixSetsDocument(ogcBase(linkUrl(c))));
  });

  ogc.get(route('tileMatrixSet'), (c) => {
    queryOf(c, queries.tileMatrixSet);
    if (!isWebMercatorQuad(c.req.param('tileMatrixSetId') ?? '')) throw unknownTileMatrixSet();
    return sendJson(c, tileMatrixSetDocument(ogcBase(linkUrl(c))));
  });

  // A collection's tiles, vector and map: the REST tiles without parameters, cached as they are (docs/ogc.md, "OGC API – Tiles").
  const tileServices = { ...services, classifications: classificationCache() };
  const tileDefaults = tileQuerySchema(services.themes).parse({});
  const attributionOf = dataAttribution(config);
  const tileCaching = cachedPicture<OgcTileRequest>(config, (request) => attributionOf(request.file)) as MiddlewareHandler<AppEnv>;
  for (const kind of Object.keys(TILE_KINDS) as TileKind[]) {
    const { format, mediaType } = TILE_KINDS[kind];
    ogc.get(route(`${kind}Tilesets`), admitted, async (c) => {
      queryOf(c, queries[`${kind}Tilesets`]);
      return sendJson(c, tilesetsDocument(await describeOne(c), ogcBase(linkUrl(c)), kind));
    });

    ogc.get(route(`${kind}Tileset`), admitted, async (c) => {
      queryOf(c, queries[`${kind}Tileset`]);
      if (!isWebMercatorQuad(c.req.param('tileMatrixSetId') ?? '')) throw unknownTileMatrixSet();
      return sendJson(c, tilesetDocument(await describeOne(c), ogcBase(linkUrl(c)), kind));
    });

    /** The access step of a tile, in the REST tiles' order: the query (400), the tile's address and the collection (404), then the client's copy (304). */
    const tileAccess: MiddlewareHandler<AppEnv> = async (c, next) => {
      c.get('timing')?.lap('http');
      queryOf(c, queries[`${kind}Tile`]);
      if (!isWebMercatorQuad(c.req.param('tileMatrixSetId') ?? '')) throw unknownTileMatrixSet();
      const tile = webMercatorTile(c.req.param('tileMatrix') ?? '', c.req.param('tileRow') ?? '', c.req.param('tileCol') ?? '');
      const files = await collectionFiles(c);
      c.set('shapefile', files);
      // What the caching step keys the tile on: the REST tile's own request, so that both answer with one ETag.
      c.req.addValidatedData('query', { ...tileDefaults, file: files.name, format, tile: { ...tile, pixelRatio: 1 } } satisfies OgcTileRequest);
      await next();
    };

    ogc.get(route(`${kind}Tile`), admitted, tileAccess, tileCaching, async (c) => {
      const { tile } = c.req.valid('query' as never) as OgcTileRequest;
      const of = { query: tileDefaults, files: c.get('shapefile'), version: c.get('shapefileVersion'), signal: c.get('signal'), timing: c.get('timing') };
      const drawn = await createTile({ ...tile, format }, of, tileServices);
      return sendBytes(c, drawn.bytes, mediaType);
    });
  }

  return ogc;
}

/** A tile's request as the caching step reads it: the REST tile's query, its file, format and address. */
type OgcTileRequest = TileQuery & { file: string; format: TileFormat; tile: TileAddress & { pixelRatio: number } };

/** The query as `schema` reads it, with its parameters' names kept for the request log (readQuery refuses any name the resource does not take). */
function queryOf<Schema extends z.ZodObject>(c: Context<AppEnv>, schema: Schema): z.output<Schema> {
  const query = readQuery(schema, c.req.url);
  c.set('queryNames', [...new Set(new URL(c.req.url).searchParams.keys())]);
  return query;
}

/**
 * Segment `index` of the request's path as the client spelled it (routes see it lower-cased):
 * ['', 'ogc', 'collections', name, 'items', id].
 */
function pathSegment(c: Context<AppEnv>, index: number): string {
  const segment = new URL(c.req.url).pathname.split('/')[index];
  try {
    return decodeURIComponent(segment);
  } catch {
    // Not validly percent-encoded: no collection or feature has such a name.
    throw unknownOgcPath();
  }
}

/**
 * The 404 for a path under /ogc that names no resource. It lists the resources there are, and
 * does not echo the path: a key pasted into it by mistake must not come back.
 */
export function unknownOgcPath(): NotFoundError {
  const paths = Object.values(OPERATIONS).map((operation) => `/ogc${operation.path === '/' ? '' : operation.path}`);
  return new NotFoundError(`There is no resource at this path; those under /ogc are ${paths.join(', ')}.`);
}

/** As bytes: their size is what an admitted answer reserves (the Response would encode the text all the same). */
function sendJson(c: Context<AppEnv>, document: unknown, type: string = MEDIA_TYPES.json): Response {
  return sendBytes(c, new TextEncoder().encode(JSON.stringify(document)), type);
}

/** A page: its bytes reserved as JSON's are, with the headers that keep it to this origin's style and images. */
function sendHtml(c: Context<AppEnv>, page: string): Response {
  for (const [name, value] of Object.entries(PAGE_HEADERS)) c.header(name, value);
  return sendBytes(c, new TextEncoder().encode(page), `${MEDIA_TYPES.html}; charset=utf-8`);
}

/**
 * The workers' GeoJSON (a page's features, or one), parsed for a page: the one place the event
 * loop reads features, so the workers write them without coordinates (geometry 'type').
 */
function parsed<Shown extends ShownFeature | ShownFeature[]>(bytes: Uint8Array): Shown {
  return JSON.parse(new TextDecoder().decode(bytes)) as Shown;
}

/** Reserved among the unread answers' bytes before they are sent, where the request was admitted. */
function sendBytes(c: Context<AppEnv>, bytes: Uint8Array, type: string): Response {
  reserveAnswer(c, bytes.byteLength);
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': type });
}
