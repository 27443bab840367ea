/**
 * One page of an S3 ListObjectsV2 answer (ListBucketResult), read by a small parser of our
 * own rather than a general XML library: the answer's shape is fixed and flat, and only five
 * elements are needed (each Contents' Key, Size, ETag and LastModified; the continuation
 * token). The parser takes element text by exact tag names, so a key that looks like markup
 * is still text (S3 escapes it), and decodes the five XML entities and character references.
 */

export interface ListedObject {
  key: string;
  size: number;
  /** As S3 sends it, quotes included. */
  etag: string;
  modifiedMs: number;
}

export interface ListingPage {
  objects: ListedObject[];
  /** The token for the next page; undefined on the last. */
  nextToken: string | undefined;
  /** Whether the store said more keys follow (then it must give a token). */
  truncated: boolean;
}

/** The page, or undefined when `xml` is no ListBucketResult (an error document, a proxy's page). */
export function parseListingPage(xml: string): ListingPage | undefined {
  if (!/<ListBucketResult[\s>]/.test(xml)) return undefined;
  const objects: ListedObject[] = [];
  for (const contents of elements(xml, 'Contents')) {
    const key = firstText(contents, 'Key');
    const size = Number(firstText(contents, 'Size'));
    const etag = firstText(contents, 'ETag') ?? '';
    const modifiedMs = Date.parse(firstText(contents, 'LastModified') ?? '');
    if (key === undefined || !Number.isSafeInteger(size) || size < 0 || !Number.isFinite(modifiedMs)) continue;
    objects.push({ key, size, etag, modifiedMs });
  }
  const truncated = firstText(xml, 'IsTruncated') === 'true';
  const nextToken = truncated ? firstText(xml, 'NextContinuationToken') : undefined;
  return { objects, nextToken, truncated };
}

/** The inner text of each `<tag>…</tag>` (not nested in itself: S3's elements are not). */
function elements(xml: string, tag: string): string[] {
  const found: string[] = [];
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  for (let at = xml.indexOf(open); at !== -1; ) {
    const end = xml.indexOf(close, at + open.length);
    if (end === -1) break;
    found.push(xml.slice(at + open.length, end));
    at = xml.indexOf(open, end + close.length);
  }
  return found;
}

function firstText(xml: string, tag: string): string | undefined {
  const open = `<${tag}>`;
  const at = xml.indexOf(open);
  if (at === -1) return undefined;
  const end = xml.indexOf(`</${tag}>`, at + open.length);
  return end === -1 ? undefined : decodeXmlText(xml.slice(at + open.length, end));
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML text with its entities and character references decoded; an unknown one is left as it is. */
export function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, name: string) => {
    if (name[0] !== '#') return NAMED[name] ?? whole;
    const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
