/**
 * The GeoJSON answers of /ogc: a page of items as a FeatureCollection, and one Feature.
 * The features' text comes from a drawing worker; only the members around it are written
 * here, and joined to it as bytes, so the event loop never parses or writes geometry.
 */
import { Buffer } from 'node:buffer';
import type { ItemsPage } from '../ogc-jobs/feature-items.ts';
import type { Link } from './links.ts';

const encoder = new TextEncoder();

export function featureCollectionBytes(page: Pick<ItemsPage, 'numberMatched' | 'numberReturned' | 'features'>, links: Link[]): Uint8Array {
  const head = JSON.stringify({
    type: 'FeatureCollection',
    numberMatched: page.numberMatched,
    numberReturned: page.numberReturned,
    timeStamp: new Date().toISOString(),
    links,
  });
  return Buffer.concat([encoder.encode(`${head.slice(0, -1)},"features":`), page.features, encoder.encode('}')]);
}

/** The worker's Feature with `links` added as its last member. */
export function featureBytes(feature: Uint8Array, links: Link[]): Uint8Array {
  return Buffer.concat([feature.subarray(0, feature.length - 1), encoder.encode(`,"links":${JSON.stringify(links)}}`)]);
}
