/**
 * Which representation of an /ogc resource a request gets. `f` decides when given; without
 * it, the Accept header: a browser (which lists text/html first) gets the HTML pages, while
 * GDAL, QGIS and scripts (which ask for JSON, or for anything, as curl does) keep JSON.
 */

export type Representation = 'json' | 'html';

interface Accepted {
  type: string;
  q: number;
}

/** The media ranges of an Accept header, lower-cased, with their quality (1 when unstated). */
function acceptedTypes(accept: string | undefined): Accepted[] {
  if (!accept) return [];
  return accept.split(',').map((range) => {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    return { type, q: Number.isFinite(quality) ? quality : 0 };
  });
}

/** The highest quality the header gives a type it names exactly (no wildcard): 0 when it names none. */
function namedQuality(accepted: readonly Accepted[], matches: (type: string) => boolean): number {
  return accepted.reduce((best, { type, q }) => (matches(type) ? Math.max(best, q) : best), 0);
}

const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');

/** HTML when `f=html`, or without `f` when the client names text/html and ranks no JSON type above it. */
export function representation(f: string | undefined, accept: string | undefined): Representation {
  if (f !== undefined) return f === 'html' ? 'html' : 'json';
  const accepted = acceptedTypes(accept);
  const html = namedQuality(accepted, (type) => type === 'text/html');
  return html > 0 && html >= namedQuality(accepted, isJson) ? 'html' : 'json';
}

/**
 * The queryables' media type: JSON Schema's own, unless the client names JSON types and not
 * that one. GDAL 3.6 asks for `application/geo+json, application/json` and refuses any other
 * Content-Type, which would leave it filtering every page itself.
 */
export function queryablesMediaType(accept: string | undefined): 'application/schema+json' | 'application/json' {
  const accepted = acceptedTypes(accept);
  const wildcard = namedQuality(accepted, (type) => type === '*/*' || type === 'application/*');
  const schema = namedQuality(accepted, (type) => type === 'application/schema+json');
  const json = namedQuality(accepted, (type) => type === 'application/json');
  return json > 0 && schema === 0 && wildcard === 0 ? 'application/json' : 'application/schema+json';
}
