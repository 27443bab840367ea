/**
 * The tiles of a layer (docs/tiles.md): GET /REST/v1/shapefiles/tiles/{file}/{z}/{x}/{y}.png,
 * `@2x.png` and `.mvt`, the layer's TileJSON at /tiles/{file}.json and its MapLibre style at
 * /tiles/{file}/style.json. Each in the order of the other operations: the parameters (400),
 * the tile's address (400), the key's access to the shapefile (404), the client's copy (304),
 * then the work.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { cachedPicture } from '../caching/picture-caching.ts';
import { dataAttribution } from '../envelope/copyright.ts';
import { echo, NotFoundError } from '../errors.ts';
import type { AppEnv } from '../http/context.ts';
import { visibleShapefile } from '../http/shapefile-access.ts';
import { validQuery } from '../http/validate.ts';
import { publicRequestUrl } from '../ogc/links.ts';
import { createTile, layerFacts, tileStyling, type TileServices } from '../operations/tiles.ts';
import { tileOf, tileQuerySchema, type TileFormat, type TileQuery } from '../params/tiles.ts';
import { thematicFields } from '../params/thematic.ts';
import { compileFilter } from '../filter/index.ts';
import type { CollectionFacts } from '../ogc-jobs/feature-items.ts';
import { fieldsNamedIn } from '../shapefile/dbf.ts';
import type { TileAddress } from '../projection/tile-address.ts';
import type { ShapefileCatalog } from '../shapefile/shapefile-catalog.ts';
import { mapStyle } from '../tiles/map-style.ts';
import { tileJson } from '../tiles/tilejson.ts';
import type { Services } from '../app-services.ts';

/** What the caching step keys an answer on: the query, the shapefile, and what is answered. */
type TileRequest = TileQuery & { file: string; format: string; tile?: TileAddress & { pixelRatio: number }; documentOf?: string };

const MEDIA_TYPES: Record<TileFormat, string> = { png: 'image/png', mvt: 'application/vnd.mapbox-vector-tile' };

/** The map operation's parameters a style's static-picture URL carries over from the tiles' query. */
const MAP_PARAMETERS = new Set(['linecolor', 'linewidth', 'where', 'key', ...Object.keys(thematicFields)]);

export function tilesRoute(services: Services & TileServices) {
  const { config, catalog } = services;
  const schema = tileQuerySchema(services.themes);
  const attributionOf = dataAttribution(config);
  const caching = cachedPicture<TileRequest>(config, (request) => attributionOf(request.file)) as MiddlewareHandler<AppEnv>;
  const linkUrl = (c: Context<AppEnv>) => publicRequestUrl(c.req.url, config.ogc.publicUrl);

  return new Hono<AppEnv>()
    .get('/tiles/:file/style.json', validQuery(schema), layer(catalog, 'style', linkUrl), caching, async (c) => {
      const of = requestOf(c);
      const [facts, styled] = await Promise.all([layerFacts(of.files, services, of.signal, of.timing), tileStyling(of, services)]);
      namedInFile(of.query, facts);
      const urls = documentUrls(linkUrl(c), of.files.name);
      const style = mapStyle({
        layer: of.files.name,
        geometryTypes: facts.geometryTypes,
        style: of.query.style,
        ...(styled ? { classes: { legend: styled.legend, outline: of.query.thematic.outline ?? {} } } : {}),
        tileJsonUrl: urls.tileJson,
        basemap: { tiles: urls.basemap },
        mapUrl: urls.map,
      });
      return c.json(style);
    })
    .get('/tiles/:file/:z/:x/:y', validQuery(schema), layer(catalog, 'tile', linkUrl), caching, async (c) => {
      const of = requestOf(c);
      const { tile } = c.req.valid('query' as never) as TileRequest;
      const drawn = await createTile({ ...tile!, format: tileFormatOf(c) }, of, services);
      c.header('Content-Type', MEDIA_TYPES[tileFormatOf(c)]);
      return c.body(drawn.bytes as Uint8Array<ArrayBuffer>);
    })
    .get('/tiles/:name', validQuery(schema), layer(catalog, 'tilejson', linkUrl), caching, async (c) => {
      const of = requestOf(c);
      const facts = await layerFacts(of.files, services, of.signal, of.timing);
      const format = of.query.tileFormat;
      const named = namedInFile(of.query, facts);
      const fields = facts.fields.filter((field) => named.includes(field.name));
      const urls = documentUrls(linkUrl(c), of.files.name);
      return c.json(
        tileJson({
          layer: of.files.name,
          tiles: format === 'png' ? urls.pngTiles : urls.mvtTiles,
          format,
          ...(facts.lonLatBBox ? { lonLatBBox: facts.lonLatBBox } : {}),
          fields,
          classed: of.query.thematic.colouring !== undefined,
          attribution: attributionOf(of.files.name) ?? '',
        }),
      );
    });
}

/**
 * The access step of a tiles route: the shapefile its path names (404 when there is none or
 * the key may not see it, one sentence for both), and, for a tile, its address (400); handed on
 * in the validated query, where the caching step finds them.
 */
function layer(catalog: ShapefileCatalog, answer: 'tile' | 'style' | 'tilejson', linkUrl: (c: Context<AppEnv>) => string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    let name = c.req.param('file') ?? c.req.param('name') ?? '';
    if (answer === 'tilejson') {
      if (!name.endsWith('.json')) throw new NotFoundError(`There is no resource at this path; a layer's TileJSON is /REST/v1/shapefiles/tiles/{file}.json.`);
      name = name.slice(0, -'.json'.length);
    }
    const tile = answer === 'tile' ? tileOf(c.req.param('z') ?? '', c.req.param('x') ?? '', c.req.param('y') ?? '') : undefined;
    const files = await visibleShapefile(catalog, name, c.get('grant'), c.get('signal'));
    if (!files) throw new NotFoundError(`Shapefile '${echo(name)}' was not found.`);
    c.set('shapefile', files);
    const query = c.req.valid('query' as never) as TileQuery;
    const format = tile ? tile.format : answer;
    // A document's URLs carry the request's origin and own query: its ETag names them.
    const named = tile ? { tile: { z: tile.z, x: tile.x, y: tile.y, pixelRatio: tile.pixelRatio } } : { documentOf: linkUrl(c) };
    c.req.addValidatedData('query', { ...query, file: files.name, format, ...named });
    await next();
  };
}

/** The `fields` as the file spells them; 400 naming a field or a `where=` name the file has not, as every tile of the layer answers. */
function namedInFile(query: TileQuery, facts: CollectionFacts): string[] {
  if (query.where !== undefined) compileFilter(query.where, facts.fields);
  return fieldsNamedIn(facts, 'fields', query.fields);
}

function tileFormatOf(c: Context<AppEnv>): TileFormat {
  return (c.req.valid('query' as never) as TileRequest).format as TileFormat;
}

function requestOf(c: Context<AppEnv>) {
  c.get('timing')?.lap('http');
  return {
    query: c.req.valid('query' as never) as TileQuery,
    files: c.get('shapefile'),
    version: c.get('shapefileVersion'),
    signal: c.get('signal'),
    timing: c.get('timing'),
  };
}

/**
 * The URLs a layer's documents give, on the origin the request came to (or the public URL),
 * with the request's own parameters. A key that came in the request's query rides along (a
 * MapLibre page can send it no other way; docs/tiles.md, "Keys"); one sent in a header never
 * does; a signature, which signs one URL, never does.
 */
function documentUrls(requestUrl: string, file: string) {
  const url = new URL(requestUrl);
  const root = `${url.origin}${url.pathname.slice(0, url.pathname.toLowerCase().indexOf('/rest/v1/'))}`;
  const query = new URLSearchParams();
  const mapQuery = new URLSearchParams({ file, format: 'png', size: '512,512' });
  let key: string | undefined;
  for (const [name, value] of url.searchParams) {
    const lower = name.toLowerCase();
    if (lower === 'tiles' || lower === 'signature') continue;
    if (lower === 'key') key = value;
    query.append(name, value);
    if (MAP_PARAMETERS.has(lower)) mapQuery.append(name, value);
  }
  const search = query.size > 0 ? `?${query}` : '';
  const layerPath = `${root}/REST/v1/shapefiles/tiles/${encodeURIComponent(file)}`;
  return {
    mvtTiles: `${layerPath}/{z}/{x}/{y}.mvt${search}`,
    pngTiles: `${layerPath}/{z}/{x}/{y}.png${search}`,
    tileJson: `${layerPath}.json${search}`,
    basemap: `${root}/REST/v1/basemap/Road/{z}/{x}/{y}.png${key === undefined ? '' : `?key=${encodeURIComponent(key)}`}`,
    map: `${root}/REST/v1/shapefiles/map?${mapQuery}`,
  };
}
