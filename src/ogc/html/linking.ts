/**
 * The hrefs of the HTML pages. They keep `f=html`, so a click stays in the pages, and carry no
 * key, as every /ogc link (decisions.md), with one exception: the well-known demo key, when the
 * request brought it in the query. It is no secret (the start-up lines print it, it serves only
 * this machine's own pages), and a browser can send a key no other way: without it, the first
 * click (a next page, a feature, its picture in an <img>) would answer 401.
 */
import { DEMO_KEY } from '../../config/schema.ts';

export interface HtmlLinking {
  /** Where the service is rooted (the playground is here), without a trailing slash. */
  root: string;
  /** The URL of /ogc. */
  base: string;
  /** Whether the demo key may ride along in the pages' URLs (see above). */
  demoKey: boolean;
}

/** `url` with `changes` to its query, in format `f`, without any key but the demo key. */
export function pageHref(linking: HtmlLinking, url: string, changes: Record<string, string> = {}, f: 'html' | 'json' = 'html'): string {
  const href = new URL(url);
  href.searchParams.delete('key');
  for (const [name, value] of Object.entries(changes)) href.searchParams.set(name, value);
  href.searchParams.set('f', f);
  if (linking.demoKey) href.searchParams.set('key', DEMO_KEY);
  return href.href;
}

/** A URL outside /ogc (an image of ours) as the pages may name it: the demo key added on the same terms. */
export function serviceHref(linking: HtmlLinking, path: string, query: Record<string, string>): string {
  const href = new URL(`${linking.root}${path}`);
  for (const [name, value] of Object.entries(query)) href.searchParams.set(name, value);
  if (linking.demoKey) href.searchParams.set('key', DEMO_KEY);
  return href.href;
}

/** The playground, opened on a shapefile (it needs no key in its URL: the user types the key there). */
export function playgroundHref(linking: HtmlLinking, file: string): string {
  return `${linking.root}/?file=${encodeURIComponent(file)}`;
}
