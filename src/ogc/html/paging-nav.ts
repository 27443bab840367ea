/**
 * The links of an HTML page to the pages before and after it (a page of items, or of the
 * collections): the same neighbours the JSON's `prev` and `next` links name (paging.ts).
 */
import { neighbourPages, type PagePosition } from '../paging.ts';
import { pageHref, type HtmlLinking } from './linking.ts';
import { html, type Markup } from './markup.ts';

/** `url`: the page's own URL as links name it; nothing when it has no neighbour (one page holds them all). */
export function pagingNav(linking: HtmlLinking, url: string, position: PagePosition): Markup {
  const { next, prev } = neighbourPages(position);
  if (!next && !prev) return html``;
  const links = [
    prev ? html`<a rel="prev" href="${pageHref(linking, url, prev)}">Previous ${position.limit}</a>` : undefined,
    next ? html`<a rel="next" href="${pageHref(linking, url, next)}">Next ${position.limit}</a>` : undefined,
  ].filter((link): link is Markup => link !== undefined);
  return html`      <nav aria-label="Pages"><p>${links.map((link, i) => html`${i > 0 ? ' · ' : ''}${link}`)}</p></nav>
`;
}
