/**
 * What the routes need to answer with a page: whether the request wants one, the linking
 * facts of its pages, and the headers every page carries (a policy that lets in only this
 * origin's stylesheet and images, and the empty data: icon, no script at all).
 */
import type { Context } from 'hono';
import type { AppEnv } from '../../http/context.ts';
import { queryValue } from '../../http/query-value.ts';
import { ogcBase } from '../links.ts';
import { representation } from '../negotiation.ts';
import type { HtmlLinking } from './linking.ts';

export function wantsHtml(c: Context<AppEnv>, f: string | undefined): boolean {
  return representation(f, c.req.header('accept')) === 'html';
}

/** `linkUrl`: the request's URL as links name it (on the public URL behind a proxy). */
export function linkingFor(c: Context<AppEnv>, linkUrl: string): HtmlLinking {
  const base = ogcBase(linkUrl);
  // The key checked (require-key.ts) came in the query when it is there: the query wins over the header.
  const key = queryValue(c.req.url, 'key');
  return { base, root: base.slice(0, -'/ogc'.length), ...(key !== undefined ? { key } : {}) };
}

const CONTENT_SECURITY_POLICY = ["default-src 'none'", "style-src 'self'", "img-src 'self' data:", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].join('; ');

export const PAGE_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  // A key typed into the address bar must not leave in a Referer.
  'Referrer-Policy': 'no-referrer',
};
