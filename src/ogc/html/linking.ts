/**
 * The hrefs of the HTML pages. They keep `f=html`, so a click stays in the pages, and carry no
 * key, as every /ogc link, with one exception (docs/ogc.md, "In a browser"): the key the
 * page's own request brought in its query. A browser can send a key no other way, so without
 * it the first click (a next page, a feature, its picture in an <img>) would answer 401; and it
 * tells nobody anything new, the page going back to the one whose address holds it already.
 * A key sent in the X-API-Key header is never written into a page.
 */

export interface HtmlLinking {
  /** Where the service is rooted (the playground is here), without a trailing slash. */
  root: string;
  /** The URL of /ogc. */
  base: string;
  /** The key that rides along in the pages' URLs (see above); none when the request sent it in a header. */
  key?: string;
}

/** `url` with `changes` to its query, in format `f`, with no key but the one that rides along. */
export function pageHref(linking: HtmlLinking, url: string, changes: Record<string, string> = {}, f: 'html' | 'json' = 'html'): string {
  const href = new URL(url);
  href.searchParams.delete('key');
  for (const [name, value] of Object.entries(changes)) href.searchParams.set(name, value);
  href.searchParams.set('f', f);
  if (linking.key !== undefined) href.searchParams.set('key', linking.key);
  return href.href;
}

/** A URL outside /ogc (an image of ours) as the pages may name it: the key added on the same terms. */
export function serviceHref(linking: HtmlLinking, path: string, query: Record<string, string>): string {
  const href = new URL(`${linking.root}${path}`);
  for (const [name, value] of Object.entries(query)) href.searchParams.set(name, value);
  if (linking.key !== undefined) href.searchParams.set('key', linking.key);
  return href.href;
}

/** The playground, opened on a shapefile (it keeps the key it was given itself: no key in its URL). */
export function playgroundHref(linking: HtmlLinking, file: string): string {
  return `${linking.root}/?file=${encodeURIComponent(file)}`;
}
