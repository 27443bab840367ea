/** One entity tag of a list: an optional weakness mark, then the quoted opaque part (which may hold commas). */
const ENTITY_TAG = /(?:W\/)?("[^"]*")/g;

/**
 * Whether an If-None-Match header matches the current answer's `etag` (RFC 9110 §13.1.2):
 * a list matches when one of its tags equals `etag` by weak comparison, which ignores `W/`
 * on either side (a weak tag validates a cached copy as well as a strong one). `*` ("any
 * current answer") is not taken: whether there is one (a feature past the end, a filter
 * that matches nothing) is known only once the request is worked out, so it gets the answer.
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const [, tag] of header.matchAll(ENTITY_TAG)) {
    if (tag === opaque) return true;
  }
  return false;
}
