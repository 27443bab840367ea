/**
 * Whole generated requests for every route: the parameters /openapi.json lists for the route
 * (values from value-arbitraries.ts), then what clients and attackers do to a query: names
 * in other cases, repeated with other values, misspelled, prototype keys and cache-busters,
 * odd percent-encodings, the key in every place (and in the path), odd methods and headers,
 * URLs and headers past the server's limits. A request keeps what it was generated from,
 * decoded, so that checks and the known-fault list can read it.
 */
import { fc } from '@fast-check/vitest';
import type { RawRequest } from './raw-request.ts';
import type { GeneratedFile } from './generated-data.ts';
import { anyCase, colourText, cqlFilter, fidList, fieldList, fileName, hostileText, sizeText, valueFromSchema, type ParameterSchema } from './value-arbitraries.ts';

export type RouteName =
  | 'images' | 'map'
  | 'ogc-landing' | 'ogc-conformance' | 'ogc-api' | 'ogc-collections' | 'ogc-collection' | 'ogc-queryables' | 'ogc-items' | 'ogc-item'
  | 'openapi' | 'health' | 'ready' | 'metrics' | 'playground' | 'docs' | 'unknown';

/** Where the request carries the key. */
export type KeyPlacement = 'query' | 'header' | 'query-any-case' | 'missing' | 'wrong' | 'repeated' | 'misspelled' | 'in-path';

export interface GeneratedRequest extends RawRequest {
  route: RouteName;
  /** The query as generated (decoded), in order; the key's entries included. */
  params: [string, string][];
  /** The shapefile the request names (`file`, or the collection in the path), as given. */
  file?: string;
  keyPlacement: KeyPlacement;
  /** Whether it was generated to be hostile; if not, every value is one the route takes (a client's request). */
  hostile: boolean;
  /** Whether some part of the target was percent-encoded brokenly on purpose. */
  brokenEncoding: boolean;
}

/** One parameter of a route as /openapi.json lists it. */
export interface DescribedParameter {
  name: string;
  in: 'query' | 'path' | 'header';
  schema: ParameterSchema;
}

export interface GenerationContext {
  /** A configured key: the one every request that carries a key carries. */
  key: string;
  files: readonly GeneratedFile[];
  /** The parameters /openapi.json lists for one of its paths. */
  parameters(path: string): DescribedParameter[];
  maxIds: number;
  maxSize: number;
}

/** Names every JavaScript object has, and names clients add to defeat caches: all must be ignored (or refused by /ogc). */
export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf'];
export const CACHE_BUSTERS = ['_', 'cb', 't', 'v', 'callback', 'utm_source', 'x-y', '_=1'];

const sometimes = <T>(arbitrary: fc.Arbitrary<T>, weight: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 100 - weight, arbitrary: fc.constant(undefined) }, { weight, arbitrary });

// ---------------------------------------------------------------------------------------
// Operations: images and map

const OPERATION_PATHS = { images: '/REST/v1/shapefiles/images', map: '/REST/v1/shapefiles/map' } as const;

/** How often (in %) an operation's request names each parameter; the rest 25 %. */
const INCLUSION: Record<string, number> = { file: 95, fid: 75, format: 85, includehotspots: 50, hotspotfields: 45, size: 50, where: 30 };

/** Values for parameters whose meaning the schema alone cannot give. */
function operationValue(name: string, schema: ParameterSchema, file: GeneratedFile, context: GenerationContext, hostile: boolean): fc.Arbitrary<string> {
  switch (name.toLowerCase()) {
    case 'file':
      return hostile ? fc.oneof({ weight: 10, arbitrary: anyCase(file.name) }, { weight: 1, arbitrary: fileName(context.files) }) : anyCase(file.name);
    case 'fid':
      return fidList(file, context.maxIds, hostile);
    case 'hotspotfields':
      return fieldList(file, 50, hostile);
    case 'where':
      return cqlFilter(file, hostile);
    case 'size':
      return sizeText(context.maxSize, hostile);
    case 'buffer':
      return hostile ? valueFromSchema(schema, true) : fc.integer({ min: 0, max: 5 }).map(String);
    case 'includehotspots':
      return fc.oneof({ weight: 4, arbitrary: fc.constant('1') }, { weight: 1, arbitrary: valueFromSchema(schema, hostile) });
    case 'linecolor': case 'fillcolor': case 'bgcolor1': case 'bgcolor2': case 'gridcolor':
      return colourText(hostile);
    default:
      return hostile ? fc.oneof({ weight: 12, arbitrary: valueFromSchema(schema, true) }, { weight: 1, arbitrary: hostileText }) : valueFromSchema(schema, false);
  }
}

/** Half the requests are hostile (any value, any mutation), half are what a client means to send, so both reach the work. */
const hostility = fc.boolean();

export function operationRequest(route: 'images' | 'map', context: GenerationContext): fc.Arbitrary<GeneratedRequest> {
  const described = context.parameters(OPERATION_PATHS[route]).filter((parameter) => parameter.in === 'query');
  const path = fc.oneof({ weight: 8, arbitrary: fc.constant(OPERATION_PATHS[route]) }, { weight: 1, arbitrary: fc.mixedCase(fc.constant(OPERATION_PATHS[route])) });
  return fc.tuple(fc.constantFrom(...context.files), hostility).chain(([file, hostile]) => {
    // A client's request names the file and what to draw; a hostile one may leave either out.
    const inclusion = (name: string) => (!hostile && (name === 'file' || name === 'fid') ? 100 : INCLUSION[name] ?? 25);
    const entries = described.map((parameter) =>
      sometimes(operationValue(parameter.name, parameter.schema, file, context, hostile).map((value): [string, string] => [parameter.name, value]), inclusion(parameter.name.toLowerCase())),
    );
    const params = fc.tuple(...entries).map((chosen) => chosen.filter((entry) => entry !== undefined));
    return assemble(route, path, params, context, { caseInsensitiveNames: true, file: file.name, hostile });
  });
}

// ---------------------------------------------------------------------------------------
// OGC API – Features

const OGC_PATHS: Record<Extract<RouteName, `ogc-${string}`>, string> = {
  'ogc-landing': '/ogc',
  'ogc-conformance': '/ogc/conformance',
  'ogc-api': '/ogc/api',
  'ogc-collections': '/ogc/collections',
  'ogc-collection': '/ogc/collections/{collectionId}',
  'ogc-queryables': '/ogc/collections/{collectionId}/queryables',
  'ogc-items': '/ogc/collections/{collectionId}/items',
  'ogc-item': '/ogc/collections/{collectionId}/items/{featureId}',
};

export const OGC_ROUTES = Object.keys(OGC_PATHS) as (keyof typeof OGC_PATHS)[];

/** A bbox as OGC clients send it: boxes on Earth, across the antimeridian, and broken ones. */
const bboxText = fc.oneof(
  fc.tuple(fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: -90, max: 90, noNaN: true }))
    .map(([a, b, c, d]) => [a, Math.min(b, d), c, Math.max(b, d)].join(',')),
  fc.constantFrom('-180,-90,180,90', '3,50,8,54', '170,-10,-170,10', '0,0,0,0', '-181,0,0,1', '0,1,0,0', '1,2,3', '1,2,3,4,5,6', 'NaN,0,1,1', '1e999,0,1,1', ',,,', '-180,-90,180,90 '),
);

const datetimeText = fc.oneof(
  fc.date({ min: new Date(-1e13), max: new Date(1e13), noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom('2020-01-01T00:00:00Z/..', '../2020-01-01T00:00:00Z', '../..', '/', '2020-13-01T00:00:00Z', '2020-01-01', 'now', '2021-01-01T00:00:00Z/2020-01-01T00:00:00Z'),
);

function ogcValue(name: string, schema: ParameterSchema, file: GeneratedFile, hostile: boolean): fc.Arbitrary<string> {
  switch (name) {
    case 'properties':
      return fieldList(file, 255, hostile);
    case 'filter':
      return cqlFilter(file, hostile);
    case 'bbox':
      return hostile ? bboxText : fc.constantFrom('-180,-90,180,90', '3,50,8,54', '170,-10,-170,10', '4,51,5,52');
    case 'datetime':
      return hostile ? datetimeText : fc.constantFrom('2020-01-01T00:00:00Z', '2020-01-01T00:00:00Z/..', '../2020-01-01T00:00:00Z');
    case 'filter-lang':
      return hostile ? fc.oneof(fc.constantFrom('cql2-text', 'cql-text', 'CQL2-TEXT', 'cql2-json'), hostileText) : fc.constantFrom('cql2-text', 'cql-text');
    case 'limit':
      return hostile ? fc.oneof(valueFromSchema(schema, true), fc.constantFrom('1000', '1001', '100000000', '0')) : fc.integer({ min: 1, max: 1000 }).map(String);
    case 'offset':
      return hostile ? valueFromSchema(schema, true) : fc.integer({ min: 0, max: file.features + 5 }).map(String);
    default:
      // OGC API's values are exact, as its names are.
      return hostile ? fc.oneof({ weight: 10, arbitrary: valueFromSchema(schema, true) }, { weight: 1, arbitrary: hostileText }) : valueFromSchema(schema, false, false);
  }
}

const featureIdText = (file: GeneratedFile, hostile: boolean) => {
  const real = fc.integer({ min: 0, max: Math.max(0, file.features - 1) }).map(String);
  if (!hostile) return real;
  return fc.oneof({ weight: 8, arbitrary: real }, { weight: 1, arbitrary: fc.constantFrom(String(file.features), '-1', '1.5', 'abc', '999999999999999', '1e3', '%2e%2e', '0x1', '') });
};

export function ogcRequest(route: keyof typeof OGC_PATHS, context: GenerationContext): fc.Arbitrary<GeneratedRequest> {
  const template = OGC_PATHS[route];
  const described = context.parameters(template).filter((parameter) => parameter.in === 'query' && parameter.name !== 'key');
  return fc.tuple(fc.constantFrom(...context.files), hostility).chain(([file, hostile]) => {
    const collection = hostile ? fc.oneof({ weight: 10, arbitrary: fc.constant(file.name) }, { weight: 1, arbitrary: fileName(context.files) }) : fc.constant(file.name);
    const path = fc.tuple(collection, featureIdText(file, hostile)).map(([name, id]) =>
      template.replace('{collectionId}', encodeURIComponent(wellFormed(name))).replace('{featureId}', id),
    );
    const entries = described.map((parameter) => sometimes(ogcValue(parameter.name, parameter.schema, file, hostile).map((value): [string, string] => [parameter.name, value]), 35));
    const params = fc.tuple(...entries).map((chosen) => chosen.filter((entry) => entry !== undefined));
    return assemble(route, path, params, context, { caseInsensitiveNames: false, file: template.includes('{collectionId}') ? file.name : undefined, hostile });
  });
}

// ---------------------------------------------------------------------------------------
// Routes without parameters, and paths that lead nowhere

const PUBLIC_PATHS = { openapi: '/openapi.json', health: '/health', ready: '/ready', metrics: '/metrics', playground: '/', docs: '/docs' } as const;

export function publicRequest(route: keyof typeof PUBLIC_PATHS, context: GenerationContext): fc.Arbitrary<GeneratedRequest> {
  const path = fc.mixedCase(fc.constant(PUBLIC_PATHS[route]));
  const params = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES, ...CACHE_BUSTERS, 'format', 'key'), fc.string({ maxLength: 8 })), fc.oneof(fc.string({ maxLength: 8 }), hostileText)), { maxLength: 3 });
  return assemble(route, path, params, context, { caseInsensitiveNames: true, hostile: true });
}

export const PUBLIC_ROUTES = Object.keys(PUBLIC_PATHS) as (keyof typeof PUBLIC_PATHS)[];

/** Paths no route serves: near misses of real ones, traversal, encoded slashes, very long ones. */
export function unknownPathRequest(context: GenerationContext): fc.Arbitrary<GeneratedRequest> {
  const segment = fc.oneof(
    fc.constantFrom('REST', 'v1', 'shapefiles', 'image', 'maps', 'ogc', 'collection', 'item', '..', '%2e%2e', '%2F', '.', 'health', 'openapi.json', '__proto__', 'constructor', '%00', '%zz', '%C0%AE'),
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }).map((text) => encodeURIComponent(text)),
  );
  const path = fc.oneof(
    { weight: 6, arbitrary: fc.array(segment, { minLength: 1, maxLength: 6 }).map((segments) => `/${segments.join('/')}`) },
    { weight: 1, arbitrary: fc.constantFrom('/REST/v1/shapefiles/images/', '/REST/v1/shapefiles', '/ogc/', '/ogc/collections/', '//health', '/docs/../health', '/ogc/collections/points/items/0/x') },
  ).filter((candidate) => !isRoutePath(candidate));
  return assemble('unknown', path, fc.constant([]), context, { caseInsensitiveNames: true, hostile: true });
}

/** Whether a generated "unknown" path happens to be a route after all (paths are case-insensitive). */
function isRoutePath(path: string): boolean {
  // As the server sees it: dot segments resolved ('/docs/../health' is /health).
  const lower = new URL(path, 'http://host').pathname.toLowerCase();
  const exact = [...Object.values(PUBLIC_PATHS), ...Object.values(OPERATION_PATHS), '/ogc', '/ogc/conformance', '/ogc/api', '/ogc/collections', '/docs/start.js', '/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/playground/playground.js', '/playground/playground.css'].map((p) => p.toLowerCase());
  return exact.includes(lower) || /^\/ogc\/collections\/[^/]+(\/queryables|\/items(\/[^/]+)?)?$/.test(lower);
}

// ---------------------------------------------------------------------------------------
// What every request goes through: hostile changes to the query, the key, encoding, method, headers

type Mutation =
  | { kind: 'recase'; index: number; name: string }
  | { kind: 'repeat'; index: number; name: string; value: string | undefined; sameName?: boolean }
  | { kind: 'misspell'; index: number; edit: number }
  | { kind: 'extra'; name: string; value: string }
  | { kind: 'oversize'; length: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('recase' as const), index: fc.nat(), name: fc.constant('') }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('repeat' as const), index: fc.nat(), name: fc.constant(''), value: fc.option(hostileText, { nil: undefined }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('misspell' as const), index: fc.nat(), edit: fc.nat() }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('extra' as const), name: fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES, ...CACHE_BUSTERS), fc.string({ maxLength: 10 })), value: fc.oneof(fc.string({ maxLength: 10 }), hostileText) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('oversize' as const), length: fc.integer({ min: 16_000, max: 40_000 }) }) },
);

/** A misspelling of `name`: a letter dropped, doubled, swapped or changed, or an 's' added or dropped. */
export function misspell(name: string, edit: number): string {
  if (name.length === 0) return 's';
  const at = edit % name.length;
  switch (Math.floor(edit / name.length) % 5) {
    case 0: return name.slice(0, at) + name.slice(at + 1) || `${name}s`;
    case 1: return name.slice(0, at) + name[at] + name.slice(at);
    case 2: return at + 1 < name.length ? name.slice(0, at) + name[at + 1] + name[at] + name.slice(at + 2) : `${name}s`;
    case 3: return name.slice(0, at) + (name[at] === 'x' ? 'y' : 'x') + name.slice(at + 1);
    default: return name.endsWith('s') ? name.slice(0, -1) : `${name}s`;
  }
}

function applyMutations(params: [string, string][], mutations: Mutation[], caseFold: (name: string) => string): [string, string][] {
  const result = params.map(([name, value]): [string, string] => [name, value]);
  for (const change of mutations) {
    const target = result.length > 0 ? result[change.kind === 'extra' || change.kind === 'oversize' ? 0 : change.index % result.length] : undefined;
    switch (change.kind) {
      case 'recase':
        if (target) target[0] = caseFold(target[0]);
        break;
      case 'repeat':
        if (target) result.push([change.sameName ? target[0] : caseFold(target[0]), change.value ?? target[1]]);
        break;
      case 'misspell':
        if (target) target[0] = misspell(target[0], change.edit);
        break;
      case 'extra':
        result.push([change.name, change.value]);
        break;
      case 'oversize':
        result.push(['pad', 'p'.repeat(change.length)]);
        break;
    }
  }
  return result;
}

/** A name in another case, derived from the name itself so that it replays. */
const flipCase = (name: string) => [...name].map((char, i) => (i % 2 === 0 ? char.toUpperCase() : char.toLowerCase())).join('');

/** `text` with unpaired surrogates replaced by U+FFFD, as UTF-8 (and encodeURIComponent) must have it. */
const wellFormed = (text: string) => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

type Encoding = 'standard' | 'plus' | 'every-byte' | 'lower-hex' | 'loose';

/** Endings no percent-decoder should accept quietly: a lone '%', bad hex, cut-off, overlong or surrogate UTF-8, NUL. */
const BROKEN_ESCAPES = ['%', '%z', '%zz', '%C3', '%ED%A0%80', '%C0%AE', '%00', '%FF', '%%'];

function encodeComponent(text: string, encoding: Encoding): string {
  const standard = encodeURIComponent(wellFormed(text));
  switch (encoding) {
    case 'standard':
      return standard;
    case 'plus':
      return standard.replaceAll('%20', '+');
    case 'every-byte':
      return [...new TextEncoder().encode(text)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    case 'lower-hex':
      return standard.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
    case 'loose':
      // What browsers leave as it is in a query: commas, colons, slashes, quotes, brackets.
      return standard.replace(/%(2C|3A|2F|27|28|29|5B|5D|40|24)/g, (escape) => decodeURIComponent(escape));
  }
}

interface AssembleOptions {
  /** Whether the route reads names case-insensitively (so a name in another case is the same parameter). */
  caseInsensitiveNames: boolean;
  file?: string;
  /** Whether to change the query as attackers do; if not, only as clients do (names in another case, cache-busters). */
  hostile: boolean;
}

const encodingArbitrary = fc.oneof({ weight: 8, arbitrary: fc.constant<Encoding>('standard') }, fc.constantFrom<Encoding>('plus', 'every-byte', 'lower-hex', 'loose'));

function assemble(
  route: RouteName,
  pathArbitrary: fc.Arbitrary<string>,
  paramsArbitrary: fc.Arbitrary<[string, string][]>,
  context: GenerationContext,
  options: AssembleOptions,
): fc.Arbitrary<GeneratedRequest> {
  const { hostile } = options;
  const plainKey = fc.constantFrom<KeyPlacement>('query', 'header');
  const keyPlacement = hostile
    ? fc.oneof({ weight: 6, arbitrary: plainKey }, { weight: 1, arbitrary: fc.constantFrom<KeyPlacement>('query-any-case', 'missing', 'wrong', 'repeated', 'misspelled', 'in-path') })
    : plainKey;
  const plainMethod = fc.oneof({ weight: 10, arbitrary: fc.constant('GET') }, { weight: 1, arbitrary: fc.constant('HEAD') });
  const method = hostile ? fc.oneof({ weight: 10, arbitrary: plainMethod }, { weight: 1, arbitrary: fc.constantFrom('POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'get') }) : plainMethod;
  const extraHeaders = fc.record(
    {
      'If-None-Match': fc.constantFrom('*', 'W/"x"', '"0"', 'garbage'),
      Accept: fc.constantFrom('*/*', 'application/json', 'image/png', 'text/html;q=0.1', '\u00ff'),
      Origin: fc.constantFrom('http://127.0.0.1:3000', 'https://evil.example', 'null'),
      'X-Forwarded-For': fc.constantFrom('203.0.113.9', '127.0.0.1, 10.0.0.1'),
    },
    { requiredKeys: [] },
  );
  // Headers past the server's 16 KiB: rare, since such a request never reaches a route.
  const oversizeHeader = hostile ? sometimes(fc.integer({ min: 17_000, max: 30_000 }).map((length) => 'h'.repeat(length)), 3) : fc.constant(undefined);
  const brokenEscape = hostile ? sometimes(fc.tuple(fc.nat(), fc.constantFrom(...BROKEN_ESCAPES)), 6) : fc.constant(undefined);
  // What clients do to a query they mean: other cases (where names are case-insensitive), cache-busters, an exact repeat.
  // (/ogc takes no parameter it does not name, in no other case: a client of it changes nothing but by repeating one.)
  const clientMutation: fc.Arbitrary<Mutation> = options.caseInsensitiveNames
    ? fc.oneof(
        fc.record({ kind: fc.constant('extra' as const), name: fc.constantFrom(...CACHE_BUSTERS), value: fc.string({ maxLength: 10 }) }),
        fc.record({ kind: fc.constant('recase' as const), index: fc.nat(), name: fc.constant('') }),
        fc.record({ kind: fc.constant('repeat' as const), index: fc.nat(), name: fc.constant(''), value: fc.constant(undefined) }),
      )
    : fc.record({ kind: fc.constant('repeat' as const), index: fc.nat(), name: fc.constant(''), value: fc.constant(undefined), sameName: fc.constant(true) });
  const mutations = hostile
    ? fc.oneof({ weight: 1, arbitrary: fc.constant<Mutation[]>([]) }, { weight: 2, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }) })
    : fc.oneof({ weight: 2, arbitrary: fc.constant<Mutation[]>([]) }, { weight: 1, arbitrary: fc.array(clientMutation, { minLength: 1, maxLength: 2 }) });
  return fc
    .record({
      path: pathArbitrary,
      params: paramsArbitrary,
      mutations,
      keyPlacement,
      keyName: fc.mixedCase(fc.constant('key')),
      encodings: fc.array(encodingArbitrary, { minLength: 1, maxLength: 4 }),
      method,
      extraHeaders: sometimes(extraHeaders, 25),
      oversizeHeader,
      brokenEscape,
      misspeltKey: fc.nat(),
    })
    .map(({ path, params, mutations, keyPlacement, keyName, encodings, method, extraHeaders, oversizeHeader, brokenEscape, misspeltKey }): GeneratedRequest => {
      const fold = options.caseInsensitiveNames ? flipCase : (name: string) => name.toUpperCase();
      const query = applyMutations(params, mutations, fold);
      const headers: Record<string, string> = { ...(extraHeaders ?? {}), ...(oversizeHeader ? { 'X-Padding': oversizeHeader } : {}) };
      let requestPath = path;
      switch (keyPlacement) {
        case 'query': query.push(['key', context.key]); break;
        case 'header': headers['X-API-Key'] = context.key; break;
        case 'query-any-case': query.push([keyName, context.key]); break;
        case 'wrong': query.push(['key', `${context.key}-not`]); break;
        case 'repeated': query.push([keyName, context.key], [flipCase('key'), 'another-value']); break;
        case 'misspelled': query.push([misspell('key', misspeltKey), context.key]); break;
        case 'in-path': requestPath = `${path.replace(/\/$/, '')}/${context.key}`; headers['X-API-Key'] = context.key; break;
        case 'missing': break;
      }
      let text = query.map(([name, value], i) => {
        const encoding = encodings[i % encodings.length];
        return `${encodeComponent(name, encoding)}=${encodeComponent(value, encoding)}`;
      }).join('&');
      if (brokenEscape) {
        const [at, escape] = brokenEscape;
        const cut = text.length === 0 ? 0 : at % (text.length + 1);
        // Not inside an escape that is already there: after the '&' or '=' at or before the cut.
        const safe = Math.max(text.lastIndexOf('&', cut), text.lastIndexOf('=', cut)) + 1;
        text = text.length === 0 ? `x=${escape}` : text.slice(0, safe) + escape + text.slice(safe);
      }
      return {
        route,
        method,
        target: text.length > 0 ? `${requestPath}?${text}` : requestPath,
        headers,
        params: query,
        file: options.file,
        keyPlacement,
        hostile,
        brokenEncoding: brokenEscape !== undefined,
      };
    });
}

/** A request for every route, the operations and items weighed most (they do the work). */
export function anyRequest(context: GenerationContext): fc.Arbitrary<GeneratedRequest> {
  return fc.oneof(
    { weight: 6, arbitrary: operationRequest('images', context) },
    { weight: 5, arbitrary: operationRequest('map', context) },
    { weight: 4, arbitrary: ogcRequest('ogc-items', context) },
    { weight: 1, arbitrary: fc.constantFrom(...OGC_ROUTES).chain((route) => ogcRequest(route, context)) },
    { weight: 1, arbitrary: fc.constantFrom(...PUBLIC_ROUTES).chain((route) => publicRequest(route, context)) },
    { weight: 1, arbitrary: unknownPathRequest(context) },
  );
}
