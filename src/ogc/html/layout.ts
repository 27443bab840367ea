/**
 * The frame every HTML page of /ogc shares: the playground's stylesheet (the same look, and no
 * style of our own to serve without a key), an empty icon (else the browser asks /favicon.ico,
 * which answers 401), a trail back to the landing page, the page's JSON, and its two columns
 * (facts and links on the left, the content on the right).
 */
import { html, type Markup } from './markup.ts';
import { pageHref, type HtmlLinking } from './linking.ts';

export interface Crumb {
  label: string;
  href?: string;
}

export interface PageParts {
  title: string;
  /** From the landing page down to this one; the last is this page (no href). */
  crumbs: Crumb[];
  /** The URL of the request, for the link to its JSON. */
  url: string;
  side: Markup;
  content: Markup;
}

export function layout(linking: HtmlLinking, { title, crumbs, url, side, content }: PageParts): string {
  const trail = crumbs.map((crumb, i) => html`${i > 0 ? ' › ' : ''}${crumb.href ? html`<a href="${crumb.href}">${crumb.label}</a>` : html`<span aria-current="page">${crumb.label}</span>`}`);
  return html`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title} · shapeshot</title>
  <link rel="stylesheet" href="${linking.root}/playground/playground.css">
  <link rel="icon" href="data:,">
  <link rel="alternate" type="application/json" href="${pageHref(linking, url, {}, 'json')}">
</head>
<body>
  <header>
    <h1>${title}</h1>
    <nav aria-label="Trail"><p>${trail}</p></nav>
  </header>
  <main>
    <section aria-label="About">
${side}
      <p class="hint"><a href="${pageHref(linking, url, {}, 'json')}">This page as JSON</a> · <a href="${linking.root}/">The playground</a></p>
    </section>
    <section aria-label="Content">
${content}
    </section>
  </main>
</body>
</html>
`.text;
}

/** The trail's first steps: the landing page, then the collections. */
export function trailTo(linking: HtmlLinking, depth: 'landing' | 'collections'): Crumb[] {
  const landing = { label: 'shapeshot', href: pageHref(linking, linking.base) };
  return depth === 'landing' ? [landing] : [landing, { label: 'Collections', href: pageHref(linking, `${linking.base}/collections`) }];
}
