/**
 * The HTML pages that describe: the landing page, the list of collections and one collection
 * with its extent and queryables (the fields a filter may name), as pg_featureserv, TiPg and
 * pygeoapi show them to a browser.
 */
import type { CollectionFacts } from '../../ogc-jobs/feature-items.ts';
import type { CollectionsPage } from '../documents.ts';
import type { BBox } from '../../geometry/types.ts';
import { collectionHref } from '../links.ts';
import { layout, trailTo } from './layout.ts';
import { pageHref, playgroundHref, type HtmlLinking } from './linking.ts';
import { html, type Markup } from './markup.ts';
import { pagingNav } from './paging-nav.ts';

export function landingHtml(linking: HtmlLinking, url: string): string {
  return layout(linking, {
    title: 'shapeshot: OGC API – Features',
    crumbs: [{ label: 'shapeshot' }],
    url,
    side: html`      <p>The shapefiles of the data folder as collections, their features in GeoJSON (WGS 84 longitude/latitude).</p>`,
    content: html`      <ul>
        <li><a href="${pageHref(linking, `${linking.base}/collections`)}">The collections</a>: one per shapefile this key may see</li>
        <li><a href="${pageHref(linking, `${linking.base}/api`, {}, 'json')}">The API definition</a> (OpenAPI 3.0, JSON)</li>
        <li><a href="${pageHref(linking, `${linking.base}/conformance`, {}, 'json')}">The conformance classes</a> (JSON)</li>
      </ul>`,
  });
}

export function collectionsHtml(linking: HtmlLinking, url: string, page: CollectionsPage): string {
  const { collections } = page;
  const rows = collections.map(
    (facts) => html`        <tr>
          <td><a href="${pageHref(linking, collectionHref(linking.base, facts.name))}">${facts.name}</a></td>
          <td>${facts.shapeType}</td>
          <td>${facts.featureCount}</td>
          <td>${facts.lonLatBBox ? lonLatText(facts.lonLatBBox) : 'unknown CRS'}</td>
          <td><a href="${pageHref(linking, `${collectionHref(linking.base, facts.name)}/items`)}">Features</a> · <a href="${playgroundHref(linking, facts.name)}">Draw</a></td>
        </tr>
`,
  );
  return layout(linking, {
    title: 'Collections',
    crumbs: [...trailTo(linking, 'landing'), { label: 'Collections' }],
    url,
    side: html`      <p>${countText(page)}</p>
${pagingNav(linking, url, page)}`,
    content: html`      <table>
        <thead><tr><th scope="col">Collection</th><th scope="col">Shape type</th><th scope="col">Features</th><th scope="col">Extent (WGS 84)</th><th scope="col"></th></tr></thead>
        <tbody>
${rows}        </tbody>
      </table>`,
  });
}

export function collectionHtml(linking: HtmlLinking, url: string, facts: CollectionFacts): string {
  const href = collectionHref(linking.base, facts.name);
  const queryables = facts.fields.map((field) => html`        <tr><td><code>${field.name}</code></td><td>${field.type}</td></tr>
`);
  return layout(linking, {
    title: facts.name,
    crumbs: [...trailTo(linking, 'collections'), { label: facts.name }],
    url,
    side: html`      <dl>
        <dt>Shape type</dt><dd>${facts.shapeType} (${facts.geometryTypes.join(', ')})</dd>
        <dt>Features</dt><dd>${facts.featureCount}</dd>
        <dt>Coordinate reference system</dt><dd>${facts.crsName ?? 'unknown (no usable .prj)'}</dd>
        <dt>Extent (WGS 84 lon/lat)</dt><dd>${facts.lonLatBBox ? lonLatText(facts.lonLatBBox) : 'unknown: the CRS is unknown'}</dd>
        <dt>Extent (the file's units)</dt><dd>${boxText(facts.bbox)}</dd>
      </dl>
      <p><a href="${pageHref(linking, `${href}/items`)}">Browse its features</a> · <a href="${playgroundHref(linking, facts.name)}">Draw it in the playground</a></p>`,
    content: html`      <h2>Queryables</h2>
      <p class="hint">The fields a <code>filter</code> may name (CQL2 text, e.g. <code>${facts.fields[0]?.name ?? 'NAME'} = 'value'</code>); <a href="${pageHref(linking, `${href}/queryables`, {}, 'json')}">as JSON Schema</a>.</p>
      <table>
        <thead><tr><th scope="col">Field</th><th scope="col">Type</th></tr></thead>
        <tbody>
${queryables}        </tbody>
      </table>`,
  });
}

/** How many shapefiles the key may see, and which of them the page shows when it holds not all. */
function countText({ offset, limit, numberMatched }: CollectionsPage): Markup {
  if (offset === 0 && numberMatched <= limit) return html`${numberMatched} ${numberMatched === 1 ? 'shapefile' : 'shapefiles'} this key may see.`;
  if (offset >= numberMatched) return html`None of the ${numberMatched} shapefiles this key may see comes this far.`;
  return html`Shapefiles <strong>${offset + 1}–${Math.min(offset + limit, numberMatched)}</strong> of the ${numberMatched} this key may see.`;
}

function lonLatText(box: BBox): string {
  const f = (value: number) => value.toFixed(4);
  return `${f(box.xmin)}, ${f(box.ymin)} to ${f(box.xmax)}, ${f(box.ymax)}`;
}

function boxText(box: BBox): string {
  return `${box.xmin}, ${box.ymin} to ${box.xmax}, ${box.ymax}`;
}
