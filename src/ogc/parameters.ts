/**
 * The query parameters of each /ogc resource, as zod schemas: they validate requests, and
 * the API definition (openapi.ts) is generated from them. A schema's input side is what
 * OpenAPI describes (an integer, an array of numbers); the text of the query is turned
 * into it first (z.preprocess), so that both agree by construction. Names are exact, as
 * OGC API – Features spells them; a parameter the resource does not take is a 400.
 */
import { z } from 'zod';
import { MAX_FILTER_LENGTH } from '../filter/index.ts';
import { BadRequestError, echo } from '../errors.ts';
import type { BBox } from '../geometry/types.ts';

export interface OgcLimits {
  /** Most features one page of items holds, and most collections one page of collections; a larger `limit` is capped to it. */
  maxLimit: number;
}

/** The page size of items when the request names none (OGC API – Features' own default). */
export const DEFAULT_LIMIT = 10;

const key = z
  .string()
  .optional()
  .meta({ description: 'The access key; or send it in the X-API-Key header (links never carry it, so a client that follows them must).' });

const format = (formats: [string, ...string[]]) =>
  z
    .enum(formats, { error: `must be ${formats.map((name) => `'${name}'`).join(' or ')}` })
    .optional()
    .meta({
      description: formats.includes('html')
        ? "The format of the answer: 'html' for the pages a browser shows (what a request whose Accept header prefers text/html gets without f), else JSON."
        : 'The format of the answer; there is one, so this may be left out.',
    });

/** Digits as a number (past the largest exact integer: that integer); anything else as it came, for the schema to refuse. */
const digits = (raw: unknown) => (typeof raw === 'string' && /^\+?\d+$/.test(raw.trim()) ? Math.min(Number(raw.trim()), Number.MAX_SAFE_INTEGER) : raw);

/** Comma-separated values, trimmed. */
const list = (raw: unknown) => (typeof raw === 'string' ? raw.split(',').map((item) => item.trim()) : raw);

/** A decimal number; each part of the pattern begins with its own kind of character, so matching takes linear time. */
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const numbers = (raw: unknown) => (typeof raw === 'string' ? raw.split(',').map((item) => (NUMBER.test(item.trim()) ? Number(item) : NaN)) : raw);

const BBOX_RULE =
  "must be four numbers 'minLon,minLat,maxLon,maxLat' in WGS 84 degrees: longitudes from -180 to 180 " +
  '(minLon past maxLon crosses the antimeridian), latitudes from -90 to 90, minLat at most maxLat';

const bbox = z
  .preprocess(numbers, z.array(z.number({ error: BBOX_RULE }), { error: BBOX_RULE }).length(4, { error: BBOX_RULE }))
  .refine(([minLon, minLat, maxLon, maxLat]) => [minLon, maxLon].every((lon) => Math.abs(lon) <= 180) && -90 <= minLat && minLat <= maxLat && maxLat <= 90, {
    error: BBOX_RULE,
  })
  .transform(([minLon, minLat, maxLon, maxLat]): BBox[] =>
    minLon <= maxLon
      ? [{ xmin: minLon, ymin: minLat, xmax: maxLon, ymax: maxLat }]
      : [
          { xmin: minLon, ymin: minLat, xmax: 180, ymax: maxLat },
          { xmin: -180, ymin: minLat, xmax: maxLon, ymax: maxLat },
        ],
  )
  .optional()
  .meta({
    description:
      'Only features whose geometry meets this box, and those without geometry: minLon,minLat,maxLon,maxLat in ' +
      'WGS 84 longitude/latitude (CRS84). A box whose minLon is past its maxLon crosses the antimeridian.',
  });

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;
const DATETIME_RULE = "must be an RFC 3339 date-time or an interval 'start/end' of them, either end open ('..' or empty)";

/** An instant or an interval, as OGC API – Features' `datetime` takes them. */
function validDatetime(text: string): boolean {
  const instant = (part: string) => DATE_TIME.test(part) && !Number.isNaN(Date.parse(part));
  const ends = text.split('/');
  if (ends.length === 1) return instant(text);
  if (ends.length !== 2) return false;
  const open = ends.map((end) => end === '' || end === '..');
  if (open[0] && open[1]) return false;
  if (!ends.every((end, i) => open[i] || instant(end))) return false;
  return open[0] || open[1] || Date.parse(ends[0]) <= Date.parse(ends[1]);
}

const datetime = z
  .string()
  .refine(validDatetime, { error: DATETIME_RULE })
  .optional()
  .meta({ description: 'Features at that time or in that interval. Shapefiles carry no time, so every feature matches (as OGC API – Features says of features without one).' });

/** Most names `properties` may list: a .dbf holds at most 255 fields. */
const MAX_PROPERTIES = 255;

const properties = z
  .preprocess(
    list,
    z
      .array(z.string().min(1, { error: 'must be a comma-separated list of field names' }).max(64, { error: 'names fields of at most 64 characters' }))
      .max(MAX_PROPERTIES, { error: `must list at most ${MAX_PROPERTIES} field names` })
      .transform((names) => [...new Set(names)]),
  )
  .optional()
  .meta({ description: 'The fields each feature carries, comma-separated, matched case-insensitively; all when left out.' });

const filter = z
  .string()
  .min(1, { error: 'must be a CQL2 text expression' })
  .max(MAX_FILTER_LENGTH, { error: `must be at most ${MAX_FILTER_LENGTH} characters` })
  .optional()
  .meta({
    description:
      "Only features whose fields meet this CQL2 text expression (OGC 21-065: comparisons, LIKE, IN, BETWEEN, IS NULL, AND, OR, NOT), e.g. NAME = 'Belgium'. Field names as the queryables list them, in any case.",
  });

/**
 * `cql-text` is CQL2 text's older name, which GDAL 3.6 and clients of its age send (docs/decisions.md,
 * "Browsing and selecting"); what they write in it is a subset of CQL2 text.
 */
const filterLang = z
  .enum(['cql2-text', 'cql-text'], { error: "must be 'cql2-text' (or its older name 'cql-text'), the one filter language this API reads" })
  .default('cql2-text')
  .meta({ description: 'The language of `filter`: CQL2 text, also under its older name `cql-text`.' });

/** Every resource takes these: the key, and the one format. */
const metadataQuery = z.strictObject({ key, f: format(['json']) });

/** A tile takes the key alone: it is the REST tile without parameters (docs/ogc.md, "OGC API – Tiles"). */
const tileQuery = z.strictObject({ key });

/** A resource a browser may browse takes these: the key, and JSON or its HTML page. */
const pageQuery = z.strictObject({ key, f: format(['json', 'html']) });

/**
 * `limit` and `offset` of a paged resource: items (features) and the collections. Both page the
 * same way; only the default page size differs (`defaultLimit`), and the words for what is paged.
 * A `limit` past `maxLimit` is taken as `maxLimit`, as OGC API – Features asks of items, rather than refused.
 */
function paging({ maxLimit, defaultLimit, things }: { maxLimit: number; defaultLimit: number; things: string }) {
  const limit = z
    .preprocess(digits, z.int({ error: 'must be a positive integer' }).min(1, { error: 'must be a positive integer' }))
    .default(defaultLimit)
    .transform((value) => Math.min(value, maxLimit))
    .meta({ maximum: maxLimit, description: `Most ${things} in the page; a larger value is taken as ${maxLimit}.` });
  const offset = z
    .preprocess(digits, z.int({ error: 'must be an integer of at least 0' }).min(0, { error: 'must be an integer of at least 0' }))
    .default(0)
    .meta({ description: `${capitalized(things)} to skip: the page's first is the one at this position (0-based); the \`next\` link carries it.` });
  return { limit, offset };
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Collections in a page asked without `limit` when the data is read from a remote source
 * (docs/ogc.md, "Collections"): each costs its .dbf read whole there (its feature count leaves
 * out deleted rows), and a page of 1,000 from a bucket of 3,000 took 5 to 9 s of the 10 s
 * budget over HTTP on two busy cores (over S3 more) and the process 150 to 190 MB more memory
 * (issue 29); a page of 100 took 0.3 to 2 s. A client may still ask for up to `ogc.maxLimit`.
 */
const REMOTE_COLLECTIONS_PAGE = 100;

/**
 * The query parameters of every /ogc resource. The page size of collections when the request
 * names none: `maxLimit` from a local folder (a whole catalog of up to maxLimit shapefiles in
 * the first page, as before it was paged, so that clients that list collections once still see
 * every one of them), REMOTE_COLLECTIONS_PAGE when `remote` (docs/ogc.md, "Collections").
 */
export function ogcQueries({ maxLimit }: OgcLimits, { remote = false }: { remote?: boolean } = {}) {
  const featurePaging = paging({ maxLimit, defaultLimit: DEFAULT_LIMIT, things: 'matching features' });
  const collectionPaging = paging({ maxLimit, defaultLimit: Math.min(remote ? REMOTE_COLLECTIONS_PAGE : maxLimit, maxLimit), things: 'collections' });
  const featureFormat = format(['json', 'geojson', 'html']);
  return {
    landing: pageQuery,
    conformance: metadataQuery,
    api: metadataQuery,
    collections: pageQuery.extend(collectionPaging),
    collection: pageQuery,
    queryables: metadataQuery,
    items: z.strictObject({ key, f: featureFormat, ...featurePaging, bbox, datetime, properties, filter, 'filter-lang': filterLang }),
    item: z.strictObject({ key, f: featureFormat, properties }),
    tileMatrixSets: metadataQuery,
    tileMatrixSet: metadataQuery,
    vectorTilesets: metadataQuery,
    vectorTileset: metadataQuery,
    vectorTile: tileQuery,
    mapTilesets: metadataQuery,
    mapTileset: metadataQuery,
    mapTile: tileQuery,
  };
}

export type OgcQueries = ReturnType<typeof ogcQueries>;

/**
 * The request's query as `schema` reads it; 400 naming every parameter that is unknown,
 * malformed or given twice with different values (a key's values are never quoted).
 */
export function readQuery<Schema extends z.ZodObject>(schema: Schema, url: string): z.output<Schema> {
  const given = new Map<string, string>();
  const problems: string[] = [];
  for (const [name, value] of new URL(url).searchParams) {
    const earlier = given.get(name);
    if (earlier === undefined || earlier === value) given.set(name, value);
    else problems.push(`Parameter '${echo(name)}' was given more than once with different values${isKeyName(name) ? '' : ` ('${echo(earlier)}' and '${echo(value)}')`}.`);
  }
  const result = schema.safeParse(Object.fromEntries(given));
  for (const issue of result.error?.issues ?? []) {
    if (issue.code === 'unrecognized_keys') {
      const known = Object.keys(schema.shape).join(', ');
      problems.push(`${issue.keys.map((name) => `'${echo(name)}'`).join(', ')} ${issue.keys.length > 1 ? 'are no parameters' : 'is no parameter'} of this resource; it takes ${known}.`);
    } else {
      const name = String(issue.path[0]);
      problems.push(`Parameter '${name}' ${issue.message}${isKeyName(name) ? '' : `; got '${echo(given.get(name) ?? '')}'`}.`);
    }
  }
  if (problems.length > 0) throw new BadRequestError([...new Set(problems)].join(' '));
  return result.data!;
}

/** A key is a secret: a value sent under its name, in any case (`KEY`, `Key`), is never quoted. */
function isKeyName(name: string): boolean {
  return name.toLowerCase() === 'key';
}
