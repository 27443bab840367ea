/**
 * Where a page stands among its neighbours, for every paged resource of /ogc (items, and the
 * collections): which pages lie next to it and before it, as the changes to the request's
 * query that lead there. The JSON answers make links of them (`next`, `prev`, as OGC API –
 * Features names them), the HTML pages anchors; so both page the same way.
 */
import { requestHref, type Link } from './links.ts';

export interface PagePosition {
  /** The first entry of the page, 0-based among all that match. */
  offset: number;
  limit: number;
  /** How many match in all. */
  numberMatched: number;
}

/** The query of a neighbouring page: its `offset` and `limit`, the rest of the request's query kept. */
export type PageQuery = Record<'offset' | 'limit', string>;

export interface NeighbourPages {
  /** Only while entries follow this page. */
  next?: PageQuery;
  /** Only when this page does not start at the first entry. */
  prev?: PageQuery;
}

export function neighbourPages({ offset, limit, numberMatched }: PagePosition): NeighbourPages {
  return {
    ...(offset + limit < numberMatched ? { next: { offset: String(offset + limit), limit: String(limit) } } : {}),
    ...(offset > 0 ? { prev: { offset: String(Math.max(0, offset - limit)), limit: String(limit) } } : {}),
  };
}

/**
 * The `next` and `prev` links of a JSON page at `linkUrl` (the request's URL as links name it):
 * its query kept but for the key, which no link carries (links.ts).
 */
export function pagingLinks(linkUrl: string, position: PagePosition, type: string): Link[] {
  const { next, prev } = neighbourPages(position);
  return [
    ...(next ? [{ href: requestHref(linkUrl, next), rel: 'next', type, title: 'The next page' }] : []),
    ...(prev ? [{ href: requestHref(linkUrl, prev), rel: 'prev', type, title: 'The previous page' }] : []),
  ];
}
