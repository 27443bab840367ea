/**
 * A map's basemap labels against its features' labels (docs/api.md, "Basemap labels"): the
 * basemap draws its own names (the embedded basemap's country names), and a map that labels
 * its features would otherwise show a name twice, or two names in one place. The feature's
 * label wins: a basemap label is left out when its box collides with a feature label's, or
 * when it writes what a feature label writes (the same country named by both a little apart).
 */
import type { BBox } from '../geometry/types.ts';
import type { Basemap, BasemapLabel, BasemapLayer } from '../plugin-contract/basemap-plugin.ts';
import { labelBoxesOverlap } from './place-labels.ts';

/** A feature label as placed: what it reads and the room it takes. */
export interface FeatureLabelRoom {
  text: string;
  box: BBox;
}

/** The basemap with the labels the features' labels leave room for; the same basemap when there is nothing to leave out. */
export function basemapClearOf(basemap: Basemap, featureLabels: readonly FeatureLabelRoom[]): Basemap {
  if (featureLabels.length === 0) return basemap;
  const written = new Set(featureLabels.map((label) => sameText(label.text)));
  const kept = (label: BasemapLabel) => !written.has(sameText(label.text)) && !featureLabels.some((placed) => labelBoxesOverlap(placed.box, label.box));
  const clear = (layer: BasemapLayer): BasemapLayer => (layer.labels ? { ...layer, labels: layer.labels.filter(kept) } : layer);
  return { ...basemap, below: clear(basemap.below), ...(basemap.above ? { above: clear(basemap.above) } : {}) };
}

/** Two names are the same text whatever their case and surrounding spaces ("Russia", "RUSSIA "). */
function sameText(text: string): string {
  return text.trim().toLowerCase();
}
