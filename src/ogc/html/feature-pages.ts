/**
 * The HTML pages of features: a page of items as a table (id, geometry type, attributes) with
 * links to the pages before and after, and one feature's attributes with a picture of it.
 */
import { collectionHref } from '../links.ts';
import { layout, trailTo } from './layout.ts';
import { pageHref, playgroundHref, serviceHref, type HtmlLinking } from './linking.ts';
import { html } from './markup.ts';
import { pagingNav } from './paging-nav.ts';

/** A feature as the pages read it from the GeoJSON the workers wrote. */
export interface ShownFeature {
  id: number;
  geometry: { type: string } | null;
  properties: Record<string, unknown>;
}

export interface ShownPage {
  collection: string;
  features: readonly ShownFeature[];
  numberMatched: number;
  offset: number;
  limit: number;
  /** The filter the page is of, to say so. */
  filter?: string;
}

export function itemsHtml(linking: HtmlLinking, url: string, page: ShownPage): string {
  const { collection, features, numberMatched, offset, limit } = page;
  const fields = [...new Set(features.flatMap((feature) => Object.keys(feature.properties)))];
  const href = collectionHref(linking.base, collection);
  const rows = features.map(
    (feature) => html`        <tr>
          <td><a href="${pageHref(linking, `${href}/items/${feature.id}`, {})}">${feature.id}</a></td>
          <td>${feature.geometry?.type ?? 'none'}</td>
${fields.map((field) => html`          <td>${valueText(feature.properties[field])}</td>
`)}        </tr>
`,
  );
  const first = features.length === 0 ? 0 : offset + 1;
  return layout(linking, {
    title: `${collection}: features`,
    crumbs: [...trailTo(linking, 'collections'), { label: collection, href: pageHref(linking, href) }, { label: 'Features' }],
    url,
    side: html`      <p>Features <strong>${first}–${offset + features.length}</strong> of ${numberMatched}${page.filter ? html` matching <code>${page.filter}</code>` : ''}.</p>
${pagingNav(linking, url, { offset, limit, numberMatched })}      <p><a href="${playgroundHref(linking, collection)}">Draw them in the playground</a></p>`,
    content: html`      <table>
        <thead><tr><th scope="col">id</th><th scope="col">Geometry</th>${fields.map((field) => html`<th scope="col">${field}</th>`)}</tr></thead>
        <tbody>
${rows}        </tbody>
      </table>`,
  });
}

export function itemHtml(linking: HtmlLinking, url: string, collection: string, feature: ShownFeature): string {
  const href = collectionHref(linking.base, collection);
  const rows = Object.entries(feature.properties).map(([field, value]) => html`        <tr><th scope="row">${field}</th><td>${valueText(value)}</td></tr>
`);
  // An <img> cannot send the X-API-Key header: the picture is shown only where the key rides in its URL.
  const picture = linking.key !== undefined
    ? html`      <img src="${serviceHref(linking, '/REST/v1/shapefiles/images', { file: collection, fid: String(feature.id), format: 'png', size: '240,320' })}" alt="Feature ${feature.id} of ${collection}" width="320" height="240">`
    : html`      <p class="hint">Its picture: <code>${serviceHref(linking, '/REST/v1/shapefiles/images', { file: collection, fid: String(feature.id), format: 'png' })}</code> with your key, or in the playground.</p>`;
  return layout(linking, {
    title: `${collection}: feature ${feature.id}`,
    crumbs: [
      ...trailTo(linking, 'collections'),
      { label: collection, href: pageHref(linking, href) },
      { label: 'Features', href: pageHref(linking, `${href}/items`) },
      { label: String(feature.id) },
    ],
    url,
    side: html`      <dl>
        <dt>Feature id</dt><dd>${feature.id}</dd>
        <dt>Geometry</dt><dd>${feature.geometry?.type ?? 'none (a null shape)'}</dd>
      </dl>
${picture}
      <p><a href="${playgroundHref(linking, collection)}">Draw ${collection} in the playground</a></p>`,
    content: html`      <table>
        <thead><tr><th scope="col">Field</th><th scope="col">Value</th></tr></thead>
        <tbody>
${rows}        </tbody>
      </table>`,
  });
}

/** A field's value as a cell shows it; null (an empty .dbf field) as a dash. */
function valueText(value: unknown): string {
  return value === null || value === undefined ? '—' : String(value);
}
