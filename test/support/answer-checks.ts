/**
 * What every answer to a generated request must be, whatever the request: an answer (no
 * hang, no dropped connection), a status from the short list docs/decisions.md allows, the
 * route's own well-formed document (envelope, OGC exception, GeoJSON, a decodable picture)
 * that agrees with the status, and never the key. Returns the problems as sentences, so a
 * property can report all of them with the request, and the known-fault list can match them.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import decodeJpeg, { init as initJpegDecoder } from '@jsquash/jpeg/decode.js';
import { reasonPhrase } from '../../src/envelope/model.ts';
import { decodePng } from './png.ts';
import type { RawOutcome } from './raw-request.ts';
import type { GeneratedRequest } from './request-arbitraries.ts';
import { parseXml, type XmlElement } from './xml.ts';

/** Statuses a request may get; 500 only from a file damaged on purpose, 204 only for OPTIONS. */
const SENSIBLE = new Set([200, 304, 400, 401, 404, 405, 414, 431, 503]);

const ENVELOPE_FIELDS = ['Copyright', 'StatusCode', 'StatusDescription', 'ErrorDetails', 'TraceId', 'Resource'];

/** Routes that answer without a key. */
const PUBLIC = new Set(['openapi', 'health', 'ready', 'metrics', 'playground', 'docs']);

const jpegDecoderReady = initJpegDecoder(
  new WebAssembly.Module(readFileSync(createRequire(import.meta.url).resolve('@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm'))) as Parameters<typeof initJpegDecoder>[0],
);

export interface CheckContext {
  key: string;
  /** Names (lower-cased) of files damaged on purpose. */
  damagedFiles: ReadonlySet<string>;
}

export async function checkAnswer(request: GeneratedRequest, outcome: RawOutcome, context: CheckContext): Promise<string[]> {
  if (outcome.kind === 'failed') return [`no answer: ${outcome.reason}`];
  const problems: string[] = [];
  const { status, headers, body } = outcome;
  const text = body.toString('utf8');

  if (!sensibleStatus(request, status, context)) problems.push(`status ${status} is not one this request may get`);
  const type = String(headers['content-type'] ?? '');
  // Read as UTF-8 and as bytes (latin1): a key cut by broken UTF-8 around it must show too.
  if ([text, body.toString('latin1')].some((read) => quotesKey(request, type, read, context.key))) problems.push('the body quotes the key');
  if (Object.values(headers).some((value) => String(value).includes(context.key))) problems.push('a header quotes the key');
  if (status === 503 && headers['retry-after'] === undefined) problems.push('a 503 without Retry-After');
  if (status === 405 && headers.allow === undefined) problems.push('a 405 without Allow');
  problems.push(...keyRuleProblems(request, status));
  // A client's request to /ogc (every value one the route takes) is never refused as malformed.
  if (!request.hostile && request.route.startsWith('ogc-') && status === 400) problems.push(`a 400 for a request whose every parameter is valid: ${text.slice(0, 300)}`);

  const bodyless = request.method.toUpperCase() === 'HEAD' || status === 304 || status === 204;
  if (bodyless) {
    if (body.length > 0) problems.push(`a ${request.method} answer with status ${status} has a body of ${body.length} bytes`);
    return problems;
  }
  problems.push(...(await documentProblems(request, status, headers, body)));
  return problems;
}

/**
 * Whether the body writes the key anywhere but where docs/ogc.md ("In a browser") lets it ride:
 * in the links (href, src) of an /ogc page whose own address brought the key in its query.
 */
function quotesKey(request: GeneratedRequest, type: string, text: string, key: string): boolean {
  const linksMayCarryIt = type.startsWith('text/html') && isOgcTarget(request) && request.keyPlacement === 'query';
  const outsideLinks = linksMayCarryIt ? text.replace(/\b(?:href|src)="[^"]*"/g, '') : text;
  return outsideLinks.includes(key);
}

function sensibleStatus(request: GeneratedRequest, status: number, context: CheckContext): boolean {
  if (SENSIBLE.has(status)) return status !== 304 || 'If-None-Match' in request.headers;
  if (status === 204) return request.method === 'OPTIONS';
  if (status === 500) return namedFiles(request).some((name) => context.damagedFiles.has(name.trim().toLowerCase()));
  return false;
}

/** Every file a request names: its `file` values and the collection in its path. */
function namedFiles(request: GeneratedRequest): string[] {
  const names = request.params.filter(([name]) => name.toLowerCase() === 'file').map(([, value]) => value);
  const collection = /^\/ogc\/collections\/([^/?]+)/i.exec(request.target)?.[1];
  if (collection) names.push(safeDecode(collection));
  return names;
}

const safeDecode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * docs/decisions.md: the key is checked first. A keyed route given the key plainly never answers
 * 401; one given no key or a wrong one answers 401 whatever else is wrong.
 */
function keyRuleProblems(request: GeneratedRequest, status: number): string[] {
  if (PUBLIC.has(request.route) || request.route === 'unknown' || request.brokenEncoding) return [];
  if (status === 414 || status === 431 || request.method === 'OPTIONS') return [];
  const otherKeys = request.params.filter(([name]) => name.toLowerCase() === 'key').length;
  if ((request.keyPlacement === 'query' && otherKeys === 1) || (request.keyPlacement === 'header' && otherKeys === 0)) {
    return status === 401 ? ['a 401 though the request carries a valid key'] : [];
  }
  if ((request.keyPlacement === 'missing' || request.keyPlacement === 'wrong' || request.keyPlacement === 'misspelled') && otherKeys <= 1) {
    return status === 401 ? [] : [`status ${status} where a request without a valid key must get 401`];
  }
  return [];
}

/** The family of documents a path answers with: /ogc's, or the envelope's. */
/** Under /ogc as the server sees the path: with its dot segments resolved, as a URL parser resolves them (`/ogc/a/../../x` is /x). */
const isOgcTarget = (request: GeneratedRequest) => /^\/ogc(\/|$)/i.test(new URL(request.target, 'http://127.0.0.1').pathname);

async function documentProblems(request: GeneratedRequest, status: number, headers: RawOutcomeHeaders, body: Buffer): Promise<string[]> {
  const type = String(headers['content-type'] ?? '');
  // Refused before the app saw it: the runtime's envelope, whatever the path.
  if (status === 414 || status === 431) return envelopeProblems(status, type, body, headers);
  // A browser without a valid key gets a page saying how to give one (docs/ogc.md, "In a browser").
  if (status === 401 && isOgcTarget(request) && type.startsWith('text/html')) return ogcPageProblems(request, body);
  if (status !== 200) return isOgcTarget(request) ? ogcExceptionProblems(status, type, body) : envelopeProblems(status, type, body, headers);
  switch (request.route) {
    case 'images':
    case 'map':
      return operationAnswerProblems(request, type, body, headers);
    case 'health':
      return jsonProblems(type, body, (document) => (document.status === 'ok' ? [] : [`/health says ${JSON.stringify(document)}`]));
    case 'ready':
      return jsonProblems(type, body, (document) => (typeof document.status === 'string' ? [] : ['/ready names no status']));
    case 'openapi':
      return jsonProblems(type, body, (document) => (document.openapi === '3.1.0' ? [] : ['/openapi.json is no OpenAPI 3.1 document']));
    case 'metrics':
      return type.startsWith('text/plain') && body.toString().includes('# HELP') ? [] : [`/metrics answered ${type} without Prometheus text`];
    case 'playground':
    case 'docs':
      return type.startsWith('text/html') && /<html/i.test(body.toString()) ? [] : [`${request.route} answered ${type}, not an HTML page`];
    case 'unknown':
      return ['a 200 for a path no route serves'];
    default:
      return ogcDocumentProblems(request, type, body);
  }
}

type RawOutcomeHeaders = Extract<RawOutcome, { kind: 'answer' }>['headers'];

function jsonProblems(type: string, body: Buffer, check: (document: Record<string, unknown>) => string[]): string[] {
  if (!/json/.test(type)) return [`content type '${type}' where JSON was due`];
  try {
    return check(JSON.parse(body.toString('utf8')));
  } catch (error) {
    return [`JSON that does not parse: ${(error as Error).message}`];
  }
}

function ogcExceptionProblems(status: number, type: string, body: Buffer): string[] {
  return jsonProblems(type, body, (document) => {
    const problems: string[] = [];
    if (document.code !== reasonPhrase(status).replace(/ /g, '')) problems.push(`OGC exception code '${String(document.code)}' for status ${status}`);
    if (typeof document.description !== 'string' || document.description.length === 0) problems.push('OGC exception without a description');
    return problems;
  });
}

function ogcDocumentProblems(request: GeneratedRequest, type: string, body: Buffer): string[] {
  if (type.startsWith('text/html')) return ogcPageProblems(request, body);
  return jsonProblems(type, body, (document) => {
    switch (request.route) {
      case 'ogc-items': {
        const features = document.features;
        if (document.type !== 'FeatureCollection' || !Array.isArray(features)) return ['items answered no FeatureCollection'];
        const limit = Number(request.params.find(([name]) => name === 'limit')?.[1] ?? 10);
        return Number.isFinite(limit) && features.length > Math.max(limit, 10) && features.length > 1000 ? [`a page of ${features.length} features`] : [];
      }
      case 'ogc-item':
        return document.type === 'Feature' ? [] : ['an item that is no Feature'];
      case 'ogc-api':
        return typeof document.openapi === 'string' ? [] : ['/ogc/api is no OpenAPI document'];
      default:
        return Array.isArray(document.links) || Array.isArray(document.conformsTo) || document.type === 'object' ? [] : [`${request.route} answered an unknown document`];
    }
  });
}

/** /ogc's HTML view: only for a request that asked for HTML (f=html, or text/html in Accept), and a whole page. */
function ogcPageProblems(request: GeneratedRequest, body: Buffer): string[] {
  const askedForHtml =
    request.params.some(([name, value]) => name === 'f' && value.toLowerCase() === 'html') || /text\/html/i.test(String(request.headers.Accept ?? ''));
  if (!askedForHtml) return ['an HTML page for a request that did not ask for one'];
  const page = body.toString('utf8');
  return /^<!doctype html>/i.test(page) && /<\/html>\s*$/i.test(page) ? [] : ['an HTML page that is not whole'];
}

/** The format a request asks for, if it names exactly one, plainly and validly. */
function askedFormat(request: GeneratedRequest): string | undefined {
  const formats = request.params.filter(([name]) => name.toLowerCase() === 'format');
  if (formats.length !== 1 || request.brokenEncoding) return undefined;
  const value = formats[0][1];
  const choices = request.route === 'images' ? ['xml', 'json', 'png', 'svg'] : ['xml', 'json', 'png', 'jpeg'];
  return choices.includes(value.toLowerCase()) ? value.toLowerCase() : undefined;
}

const IMAGE_TYPES: Record<string, string> = { png: 'image/png', svg: 'image/svg+xml', jpeg: 'image/jpeg' };

async function operationAnswerProblems(request: GeneratedRequest, type: string, body: Buffer, headers: RawOutcomeHeaders): Promise<string[]> {
  const format = askedFormat(request);
  if (format && IMAGE_TYPES[format] && !type.startsWith(IMAGE_TYPES[format])) return [`format=${format} answered '${type}'`];
  if (type.startsWith('image/png')) return pictureProblems(() => decodePng(body));
  if (type.startsWith('image/jpeg')) return pictureProblems(async () => decodeJpegBytes(body));
  if (type.startsWith('image/svg+xml')) {
    return pictureProblems(() => {
      const root = parseXml(body.toString('utf8'));
      if (root.name !== 'svg') throw new Error(`the root element is <${root.name}>`);
    });
  }
  if (format && !IMAGE_TYPES[format] && !type.includes(format)) return [`format=${format} answered '${type}'`];
  return envelopeProblems(200, type, body, headers);
}

async function decodeJpegBytes(body: Buffer) {
  await jpegDecoderReady;
  const bytes = new Uint8Array(body);
  return decodeJpeg(bytes.buffer);
}

async function pictureProblems(decode: () => unknown): Promise<string[]> {
  try {
    await decode();
    return [];
  } catch (error) {
    return [`a picture that does not decode: ${(error as Error).message}`];
  }
}

/** The envelope (XML or JSON): its fields in order, StatusCode the HTTP status, the TraceId of the header; on 200 a first image that decodes. */
function envelopeProblems(status: number, type: string, body: Buffer, headers: RawOutcomeHeaders): string[] {
  let envelope: { fields: string[]; get: (field: string) => string | undefined; resourceIsNull: boolean; firstImage?: Uint8Array };
  try {
    if (type.startsWith('application/json')) envelope = jsonEnvelope(body);
    else if (type.startsWith('application/xml')) envelope = xmlEnvelope(body);
    else return [`content type '${type}' where an envelope was due`];
  } catch (error) {
    return [`an envelope that does not parse: ${(error as Error).message}`];
  }
  const problems: string[] = [];
  if (envelope.fields.join() !== ENVELOPE_FIELDS.join()) problems.push(`envelope fields ${envelope.fields.join(', ')}`);
  if (envelope.get('StatusCode') !== String(status)) problems.push(`StatusCode ${envelope.get('StatusCode')} in an answer with status ${status}`);
  if (envelope.get('StatusDescription') !== reasonPhrase(status)) problems.push(`StatusDescription '${envelope.get('StatusDescription')}' for ${status}`);
  if (headers['x-trace-id'] === undefined || envelope.get('TraceId') !== headers['x-trace-id']) problems.push('TraceId differs from X-Trace-Id');
  if (status === 200) {
    if (envelope.resourceIsNull) problems.push('a 200 envelope without a Resource');
    else if (envelope.firstImage) problems.push(...pictureProblemsSync(envelope.firstImage));
  } else {
    if (!envelope.resourceIsNull) problems.push(`a ${status} envelope with a Resource`);
    if (!envelope.get('ErrorDetails')) problems.push(`a ${status} envelope without ErrorDetails`);
  }
  return problems;
}

function pictureProblemsSync(bytes: Uint8Array): string[] {
  // Envelopes carry PNGs (the images) or the map's picture; a JPEG map is never in one.
  try {
    decodePng(bytes);
    return [];
  } catch (error) {
    return [`the envelope's first image does not decode: ${(error as Error).message}`];
  }
}

function jsonEnvelope(body: Buffer) {
  const document = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  const resource = document.Resource as Record<string, unknown> | null;
  const images = resource?.ShapefileFeatureImages as { FeatureImage?: number[] }[] | undefined;
  const mapImage = resource?.MapImage as number[] | undefined;
  const first = images?.[0]?.FeatureImage ?? mapImage;
  return {
    fields: Object.keys(document),
    get: (field: string) => (document[field] === undefined || document[field] === null ? undefined : String(document[field])),
    resourceIsNull: resource === null,
    firstImage: Array.isArray(first) ? Uint8Array.from(first) : undefined,
  };
}

function xmlEnvelope(body: Buffer) {
  const root = parseXml(body.toString('utf8'));
  if (root.name !== 'Response') throw new Error(`the root element is <${root.name}>`);
  const field = (name: string) => root.children.find((child) => child.name === name);
  const resource = field('Resource');
  const first = findFirst(resource, (element) => element.name === 'FeatureImage' || element.name === 'MapImage');
  return {
    fields: root.children.map((child) => child.name),
    get: (name: string) => field(name)?.text || undefined,
    resourceIsNull: resource === undefined || resource.attributes['i:nil'] === 'true',
    firstImage: first ? Uint8Array.from(Buffer.from(first.text, 'base64')) : undefined,
  };
}

function findFirst(element: XmlElement | undefined, matches: (element: XmlElement) => boolean): XmlElement | undefined {
  if (!element) return undefined;
  if (matches(element)) return element;
  for (const child of element.children) {
    const found = findFirst(child, matches);
    if (found) return found;
  }
  return undefined;
}
